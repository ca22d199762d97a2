"""Paths as git stores them: bytes, whatever the file system allows.

A repo-relative path is held as text the way `os.fsdecode` gives it: a file name that is not
valid UTF-8 (`caf\\xe9.txt` on Linux) keeps its bytes as surrogate escapes, so it goes into a
tree and the index byte for byte, as `git add` would record it.
"""

from __future__ import annotations


def git_path(path: str) -> bytes:
    """The bytes git records for the repo-relative `path`."""
    return path.encode("utf-8", "surrogateescape")


def text_path(raw: bytes) -> str:
    """A path from a tree or the index as text (bytes that are not UTF-8 kept as escapes)."""
    return raw.decode("utf-8", "surrogateescape")

"""HEAD and a ref read from git's files (loose ref files, then packed-refs), strictly: a file
that is not as git writes it raises `Unsure`, and the caller asks the store (dulwich) instead.

A fast path keyed by commit ids must never take a value dulwich would not read the same way:
git writes 40 hex digits and a newline, or `ref: ` and a branch's name and a newline, so only
that is taken (dulwich reads a file's first line, `\r\n` stripped too: a HEAD naming
`refs/heads/main\r` is not taken for an unborn branch).
Refs kept in a reftable, a symbolic ref other than HEAD on a branch, or a ref packed twice are
left to dulwich too.
"""

from __future__ import annotations

import os
import re

_ID = re.compile(rb"[0-9a-f]{40}\n?")
_SYMREF = b"ref: "
# Bytes git never writes in a ref's name: controls (\r, \n), spaces, and what check-ref-format
# refuses.
_ODD_NAME = re.compile(rb"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//|/\.|\.lock(/|$)|[./]$")


class Unsure(Exception):
    """A ref file this reader does not take as it stands (the store reads it instead)."""


def head_commit(gitdir: str, common: str) -> str | None:
    """The commit HEAD names (None on a branch without commits), in a work tree's `gitdir`."""
    if os.path.isdir(os.path.join(common, "reftable")):
        raise Unsure("refs in a reftable")
    data = _read(os.path.join(gitdir, "HEAD"))
    if data is None:
        raise Unsure("no HEAD")
    if not data.startswith(_SYMREF):
        return _id(data)
    target = data[len(_SYMREF) :].removesuffix(b"\n")
    if not target.startswith(b"refs/heads/") or _ODD_NAME.search(target):
        raise Unsure("HEAD names no branch as git writes it")
    return ref_commit(common, target.decode("utf-8", "surrogateescape"))


def ref_commit(common: str, ref: str) -> str | None:
    """The commit id of `ref` (None when there is no such ref) in the common dir `common`."""
    data = _read(os.path.join(common, ref))
    if data is not None:
        return _id(data)
    packed = _read(os.path.join(common, "packed-refs"))
    if packed is None:
        return None
    name = ref.encode("utf-8", "surrogateescape")
    found = [
        line[:40]
        for line in packed.split(b"\n")
        if line[41:] == name and line[40:41] == b" " and not line.startswith((b"#", b"^"))
    ]
    if len(found) > 1:
        raise Unsure(f"{ref} packed twice")
    return _id(found[0]) if found else None


def _id(data: bytes) -> str:
    if _ID.fullmatch(data) is None:
        raise Unsure("not a commit id as git writes it")
    return data[:40].decode()


def _read(path: str) -> bytes | None:
    """A ref file's bytes; None when there is none (no file, or a folder of refs there)."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None

"""The globs of `reference_files:` (pure): `*` and `?` within one folder name, `**` any
number of folders, `[abc]` a set, all relative to the repository's top."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

DEFAULT_REFERENCE_FILES = ("AGENTS.md", "CLAUDE.md", "**/AGENTS.md")


def glob_problem(glob: str) -> str | None:
    """Why `glob` cannot name files inside the repository, or None."""
    if not glob.strip():
        return "is empty"
    if glob.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", glob):
        return "is absolute"
    if ".." in re.split(r"[/\\]", glob):
        return "leaves the repository (..)"
    return None


@functools.lru_cache(maxsize=64)
def _compiled(glob: str) -> re.Pattern[str]:
    parts = glob.strip("/").split("/")
    out = []
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
            continue
        out.append(_segment(part) + ("" if last else "/"))
    return re.compile("".join(out) + r"\Z")


def _segment(part: str) -> str:
    out, i = [], 0
    while i < len(part):
        c = part[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and "]" in part[i + 2 :]:
            end = part.index("]", i + 2)
            inner = part[i + 1 : end]
            negate = inner.startswith("!")
            body = re.escape(inner[1:] if negate else inner).replace(r"\-", "-")
            out.append(f"[{'^' if negate else ''}{body}]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def matches_any(path: str, globs: Iterable[str]) -> bool:
    """Whether the repo-relative `path` matches one of `globs`."""
    return any(_compiled(g).match(path) for g in globs)

"""The globs of `reference_files:` (pure): `*` and `?` within one folder name, `**` any
number of folders, `[abc]` a set, all relative to the repository's top."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

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


Matcher = Callable[[str], bool]


@functools.lru_cache(maxsize=64)
def _matcher(glob: str) -> Matcher:
    """A test of a path against `glob`. One regex when the glob has at most one `**` and one
    `*` per folder name (it cannot backtrack far); otherwise a match folder by folder and,
    within a name, by the two-pointer wildcard walk: `**/**/**/x` or `*a*a*a*b` as one regex
    backtracks exponentially, a minute per path, and a pass reads every path of the tree."""
    parts = _parts(glob)
    if parts.count("**") <= 1 and all(p.count("*") <= 1 for p in parts if p != "**"):
        pattern = _regex(parts)
        return lambda path: pattern.match(path) is not None
    segments = tuple(None if p == "**" else _tokens(p) for p in parts)
    return lambda path: _match_parts(segments, tuple(path.split("/")))


def _parts(glob: str) -> list[str]:
    """The glob's folder names, runs of `**` as one (they match what one does)."""
    parts: list[str] = []
    for part in glob.strip("/").split("/"):
        if not (part == "**" and parts and parts[-1] == "**"):
            parts.append(part)
    return parts


def _regex(parts: list[str]) -> re.Pattern[str]:
    out = []
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
            continue
        out.append("".join(_token_regex(t) for t in _tokens(part)) + ("" if last else "/"))
    return re.compile("".join(out) + r"\Z")


# A token of a folder name's pattern: "*", "?", a one-character class regex, or a literal.
Token = tuple[str, str]


def _tokens(part: str) -> tuple[Token, ...]:
    out: list[Token] = []
    i = 0
    while i < len(part):
        c = part[i]
        if c in "*?":
            out.append((c, c))
        elif c == "[" and "]" in part[i + 2 :]:
            end = part.index("]", i + 2)
            inner = part[i + 1 : end]
            negate = inner.startswith("!")
            body = re.escape(inner[1:] if negate else inner).replace(r"\-", "-")
            out.append(("set", f"[{'^' if negate else ''}{body}]"))
            i = end
        else:
            out.append(("char", c))
        i += 1
    return tuple(out)


def _token_regex(token: Token) -> str:
    kind, value = token
    return {"*": "[^/]*", "?": "[^/]"}.get(kind) or (value if kind == "set" else re.escape(value))


def _match_parts(segments: tuple[tuple[Token, ...] | None, ...], names: tuple[str, ...]) -> bool:
    """Folder by folder; None is `**` (any number of folders, at least one when last)."""

    @functools.cache
    def from_(i: int, j: int) -> bool:
        if i == len(segments):
            return j == len(names)
        seg = segments[i]
        if seg is None:
            if i == len(segments) - 1:
                return j < len(names)
            return any(from_(i + 1, k) for k in range(j, len(names)))
        return j < len(names) and _match_name(seg, names[j]) and from_(i + 1, j + 1)

    return from_(0, 0)


def _match_name(tokens: tuple[Token, ...], name: str) -> bool:
    """The wildcard walk: on a mismatch, the last `*` takes one more character (linear in
    practice, len(tokens) * len(name) at worst)."""
    t = n = 0
    star, mark = -1, 0
    while n < len(name):
        if t < len(tokens) and _one(tokens[t], name[n]):
            t, n = t + 1, n + 1
        elif t < len(tokens) and tokens[t][0] == "*":
            star, mark, t = t, n, t + 1
        elif star != -1:
            mark += 1
            t, n = star + 1, mark
        else:
            return False
    while t < len(tokens) and tokens[t][0] == "*":
        t += 1
    return t == len(tokens)


def _one(token: Token, c: str) -> bool:
    kind, value = token
    if kind == "char":
        return c == value
    if kind == "?":
        return True
    return kind == "set" and _set(value).match(c) is not None


@functools.lru_cache(maxsize=256)
def _set(value: str) -> re.Pattern[str]:
    return re.compile(value)


def matches_any(path: str, globs: Iterable[str]) -> bool:
    """Whether the repo-relative `path` matches one of `globs`."""
    return any(_matcher(g)(path) for g in globs)

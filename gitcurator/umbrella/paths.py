"""Where an umbrella's files go, whether the paths are safe, and links re-pointed (pure).

The model chooses only demote targets; everything else is placed by rule. Paths are held to
a portable shape (no dot-files such as `.git/hooks/x` or `.gitattributes`, no control
characters, look-alike slashes or spaces, no names a file system refuses for length) and an
umbrella folder must not hold two paths that clash: one file where another needs a folder, or
two names that differ only in case (one would overwrite the other on macOS and Windows).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping

SUPPORT_KINDS = ("references", "templates", "scripts", "assets")
# Where the model may place demoted text: never scripts/ (nothing it writes may run).
WRITABLE_KINDS = ("references/", "templates/")
MAX_PATH = 255
_COMPONENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_LINK = re.compile(r"(\]\(\s*<?)([^)\s>#]+)|(^\s{0,3}\[[^\]\n]+\]:\s*<?)([^\s>#]+)", re.M)


class PathProblem(ValueError):
    """A path the umbrella may not hold; the message says why."""


def rehomed_path(member: str, relative: str) -> str:
    """Where a support file of an absorbed or demoted skill goes, inside the umbrella folder.

    Files keep their kind of folder (`scripts/x.py` -> `scripts/<member>/x.py`); anything
    else goes to `references/<member>/`. The member's name in the path keeps siblings'
    same-named files apart.
    """
    kind, _, rest = relative.partition("/")
    if rest and kind in SUPPORT_KINDS:
        return f"{kind}/{member}/{rest}"
    return f"references/{member}/{relative}"


def demote_target(skill: str, target: str) -> str:
    """The model's demote path if it is a plain relative path under references/ or
    templates/; else PathProblem."""
    parts = target.split("/")
    if (
        not target
        or len(target) > MAX_PATH
        or posixpath.normpath(target) != target
        or not all(_COMPONENT.fullmatch(p) for p in parts)
    ):
        raise PathProblem(
            f"demote path {target!r} for {skill} is not a plain path inside the umbrella folder "
            "(letters, digits, '.', '_', '-'; no leading dot, no '..')"
        )
    if not target.startswith(WRITABLE_KINDS):
        raise PathProblem(
            f"demote path {target!r} for {skill}: the model may write only under references/ "
            "or templates/, never scripts/ or elsewhere"
        )
    return target


def clash(paths: Iterable[str]) -> str | None:
    """Two paths of one folder that cannot both exist, in words (None: they can)."""
    seen: dict[str, str] = {}
    for path in sorted(paths):
        key = path.casefold()
        if key in seen:
            return f"{seen[key]} and {path} differ only in case"
        seen[key] = path
    files = set(seen)
    for key, path in seen.items():
        parent = posixpath.dirname(key)
        while parent:
            if parent in files:
                return f"{seen[parent]} is a file where {path} needs a folder"
            parent = posixpath.dirname(parent)
    return None


def moved_paths(moves: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Old support-file path -> its new path, for old paths only one member had."""
    seen: dict[str, list[str]] = {}
    for old, new in moves:
        seen.setdefault(old, []).append(new)
    return {old: news[0] for old, news in seen.items() if len(news) == 1}


def relink(
    text: str,
    moved: Mapping[str, str],
    *,
    old_dir: str = "",
    new_dir: str = "",
    rebase: tuple[str, str] | None = None,
) -> str:
    """`text` with relative link targets that pointed at moved files re-pointed.

    `moved` maps paths relative to the member's folder to paths relative to the umbrella's;
    `old_dir` and `new_dir` are the text's own folder before and after, in those terms. A
    target that is already a new path is left alone. With `rebase` (the text's folder before
    and after, repo-relative), any other relative target is re-pointed to where it was, so
    a link out of the skill (`../other-skill/SKILL.md`) still arrives once the text moved.
    """

    def repl(m: re.Match[str]) -> str:
        lead, target = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if _SCHEME.match(target) or target.startswith("/"):
            return m.group(0)
        key = posixpath.normpath(posixpath.join(old_dir, target.removeprefix("./")))
        new = moved.get(key)
        if new is not None and not (not old_dir and key in moved.values()):
            return lead + posixpath.relpath(new, new_dir or ".")
        if rebase is None or new is not None:
            return m.group(0)
        was = posixpath.normpath(posixpath.join(rebase[0], target))
        if was == ".." or was.startswith("../"):
            return m.group(0)  # leaves the repository: not ours to mend
        return lead + posixpath.relpath(was, rebase[1] or ".")

    return _LINK.sub(repl, text)

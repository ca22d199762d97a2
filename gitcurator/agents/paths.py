"""Which skill a file path an agent touched belongs to (a symlinked library included)."""

from __future__ import annotations

import os
import re
from pathlib import Path

SKILL_MD = "SKILL.md"
# Folders that are never skills (as in skills.document.find_skills).
_NOT_SKILLS = {"node_modules", "__pycache__", "venv"}
# A path to a SKILL.md inside a shell command: stops at quotes, spaces and shell operators.
_SKILL_MD_IN_TEXT = re.compile(r"""[^\s'"`;|&<>()=]*SKILL\.md""")


def is_file(path: Path) -> bool:
    """Whether `path` is a file; False too for a name the system refuses (an agent's path of
    300 characters raises ENAMETOOLONG, which must not end a hook or an ingest)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


class Library:
    """A skills folder, known by the path it was given and the path it resolves to."""

    def __init__(self, root: Path) -> None:
        self.given = Path(os.path.abspath(root))
        self.real = Path(os.path.realpath(root))

    def skill_of(self, path: str, cwd: str | None = None) -> tuple[str, bool] | None:
        """(skill folder name, whether `path` is its SKILL.md) for a file inside the library;
        None for a path outside it, under a dot-folder (.git, .archive) or in no skill."""
        if not path or "\x00" in path or (cwd and "\x00" in cwd):
            return None  # no file has such a name (and os.path.realpath raises on it)
        full = os.path.expanduser(path)
        if not os.path.isabs(full):
            if not cwd:
                return None
            full = os.path.join(cwd, full)
        full = os.path.normpath(full)
        for root, candidate in ((self.real, os.path.realpath(full)), (self.given, full)):
            rel = os.path.relpath(candidate, root)
            if rel == "." or rel.startswith(".." + os.sep) or rel == "..":
                continue
            parts = rel.split(os.sep)
            if any(p.startswith(".") or p in _NOT_SKILLS for p in parts):
                return None
            return self._skill_in(root, parts)
        return None

    def _skill_in(self, root: Path, parts: list[str]) -> tuple[str, bool] | None:
        if parts[-1] == SKILL_MD:
            return (parts[-2], True) if len(parts) >= 2 else None
        # A support file: the nearest folder above it holding a SKILL.md.
        for depth in range(len(parts) - 1, 0, -1):
            if is_file(root.joinpath(*parts[:depth]) / SKILL_MD):
                return parts[depth - 1], False
        return None

    def skills_read_by(self, command: str, cwd: str | None = None) -> list[str]:
        """The skills whose SKILL.md a shell command names (cat, sed, head ...), in order."""
        found: list[str] = []
        for match in _SKILL_MD_IN_TEXT.finditer(command):
            hit = self.skill_of(match.group(0), cwd)
            if hit is not None and hit[1] and hit[0] not in found:
                found.append(hit[0])
        return found

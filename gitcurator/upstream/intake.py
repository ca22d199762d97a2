"""What a skill folder from upstream may hold before it is copied into a library (pure).

A source is anyone's repository: its tree may carry a submodule (a commit of another
repository, which a copy cannot hold), a path git itself would refuse (`..`, `.git`), or a
file too big for a skill. Symlinks leaving the skill and the skill's own rules are
`skills.check_skill`'s: the copy is validated as a whole before anything is committed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

GITLINK_MODE = 0o160000
# A skill is text an agent reads, plus small scripts and assets; larger is data.
MAX_FILE_BYTES = 10 * 1024 * 1024
_BAD_PARTS = ("", ".", "..", ".git")


@dataclass(frozen=True, slots=True)
class Incoming:
    """One entry of an upstream skill folder: its size in bytes and git mode."""

    size: int
    mode: int


def intake_problems(folder: str, entries: Mapping[str, Incoming]) -> list[str]:
    """Why the upstream folder `folder` cannot be copied as it is, one line per entry (paths
    relative to the folder); empty when it can."""
    problems = []
    for path, entry in sorted(entries.items()):
        parts = path.split("/")
        if any(p.lower() in _BAD_PARTS for p in parts) or "\\" in path:
            problems.append(f"{folder}/{path}: a path git refuses ('..', '.git' or empty parts)")
        elif entry.mode == GITLINK_MODE:
            problems.append(
                f"{folder}/{path}: a submodule (a commit of another repository), which a copied "
                "skill cannot hold; ask the source to vendor its files"
            )
        elif entry.size > MAX_FILE_BYTES:
            problems.append(
                f"{folder}/{path}: {_mb(entry.size)}, over the {_mb(MAX_FILE_BYTES)} a skill's "
                "file may be (keep data out of skills)"
            )
    return problems


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"

"""What a skill folder from upstream may bring into a library (pure): the entries
`folder_safety` refuses (paths that climb out or into `.git`, submodules, symlinks leaving the
folder), and files too big for a skill.

The copy is validated as a whole (`skills.check_tree`) before anything is committed; this is
what must be refused before a file is even written into the object store's trees.
"""

from __future__ import annotations

from collections.abc import Mapping

from gitcurator.upstream.folder_merge import FileEntry
from gitcurator.upstream.folder_safety import unsafe_reason

# A skill is text an agent reads, plus small scripts and assets; larger is data.
MAX_FILE_BYTES = 10 * 1024 * 1024


def intake_problems(
    folder: str, entries: Mapping[str, FileEntry], sizes: Mapping[str, int]
) -> list[str]:
    """Why the upstream `folder` cannot be copied as it is, one line per entry (paths relative
    to it; a symlink's `content` is its target, other contents are not looked at); empty when
    it can."""
    problems = _case_collisions(folder, entries)
    for path, entry in sorted(entries.items()):
        reason = unsafe_reason(path, entry, entries)
        if reason is not None:
            problems.append(f"{folder}/{reason}")
        elif sizes.get(path, 0) > MAX_FILE_BYTES:
            problems.append(
                f"{folder}/{path}: {_mb(sizes[path])}, over the {_mb(MAX_FILE_BYTES)} a skill's "
                "file may be (keep data out of skills)"
            )
    return problems


def _case_collisions(folder: str, entries: Mapping[str, FileEntry]) -> list[str]:
    """Paths one case-blind file system (macOS, Windows) holds as one: a checkout there would
    write one file over the other."""
    by_key: dict[str, list[str]] = {}
    for path in entries:
        parts = path.split("/")
        for k in range(1, len(parts) + 1):
            prefix = "/".join(parts[:k])
            seen = by_key.setdefault(prefix.casefold(), [])
            if prefix not in seen:
                seen.append(prefix)
    return [
        " and ".join(f"{folder}/{n}" for n in sorted(names))
        + ": one path on a case-blind file system (macOS, Windows), where one would overwrite "
        "the other"
        for _, names in sorted(by_key.items())
        if len(names) > 1
    ]


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"

"""Where a retired skill folder goes under `.archive/` (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gitcurator.skills.document import ARCHIVE_DIR


def archive_targets(
    retiring: Sequence[tuple[str, str]], paths: Iterable[str], skills_dir: str
) -> dict[str, str]:
    """name -> folder under .archive/ for each (name, folder) in `retiring`: the folder's path
    under skills_dir, suffixed -2, -3, ... when that folder is already taken in `paths`."""
    prefix = f"{skills_dir}/" if skills_dir else ""
    archive = f"{prefix}{ARCHIVE_DIR}/"
    # Only folders under .archive/ can collide; listing every folder of 10k skills is waste.
    folders = {f for p in paths if p.startswith(archive) for f in _parents(p.rsplit("/", 1)[0])}
    targets: dict[str, str] = {}
    taken = set(folders)
    for name, folder in retiring:
        rel = folder[len(prefix) :]
        target = f"{archive}{rel}"
        n = 1
        while target in taken:
            n += 1
            target = f"{archive}{rel}-{n}"
        targets[name] = target
        taken.add(target)
    return targets


def _parents(folder: str) -> list[str]:
    parts = folder.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]

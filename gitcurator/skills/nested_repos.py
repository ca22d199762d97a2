"""The finding for a folder that is a repository of its own (pure).

`git add -A` never takes the files of a folder holding its own `.git` (a clone, a worktree)
and records a submodule only as a link: a skill there is in no commit, so no pass, history
or note can see it. Reported, never skipped silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gitcurator.skills.check_skill import Finding

RULE = "nested-repository"


def nested_findings(folders: Iterable[str], only: Sequence[str] | None = None) -> list[Finding]:
    """A warning per nested repository (those inside `only`'s paths when given)."""
    return [
        Finding(
            "warning",
            folder,
            "not committed: nested repository (a submodule or a folder with its own .git; "
            "git keeps at most a link to it, never its files, so it is not curated). Move "
            f"it out of the library, or move its files in without `{folder}/.git`",
            RULE,
        )
        for folder in folders
        if only is None or any(_inside(folder, p) for p in only)
    ]


def _inside(folder: str, path: str) -> bool:
    path = path.strip("/")
    return path in ("", ".") or folder == path or folder.startswith(path + "/")

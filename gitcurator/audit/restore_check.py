"""Whether a curator branch's restore commit is the one a pass makes (pure).

A pass brings back archived skills wanted often enough in one commit that moves each one's
folder whole from `.archive/` to where `gitcurator restore` would put it, and nothing else.
`restorable` is what a pass would propose on the default branch as it stands now (name ->
(folder under .archive/, live folder), from `lifecycle.restore_proposals`): a branch cannot
restore a skill nobody wanted, move it elsewhere, or change a byte on the way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

Entry = tuple[bytes, int]
Change = tuple[Entry | None, Entry | None]


def restore_problem(
    short: str,
    files: Mapping[str, Change],
    names: Sequence[str],
    restorable: Mapping[str, tuple[str, str]],
    removed_dirs: AbstractSet[str],
    added_dirs: AbstractSet[str],
) -> str | None:
    """Why the commit `short` (its changes `files`, the folders it removes and creates, its
    `Curator-Restored` `names`) is not the restore commit a pass makes, or None when it is."""
    if not names or len(set(names)) != len(names):
        return f"commit {short} names no restored skill once each"
    unwanted = sorted(n for n in names if n not in restorable)
    if unwanted:
        return (
            f"commit {short} restores {', '.join(unwanted)}, which a pass would not propose "
            "(not archived, or not wanted curator.restore_after_wanted times since archived)"
        )
    moves = [restorable[n] for n in names]
    inside = [folder for move in moves for folder in move]
    stray = sorted(p for p in files if not any(p.startswith(f + "/") for f in inside))
    if stray:
        more = f" and {len(stray) - 1} more paths" if len(stray) > 1 else ""
        return f"commit {short} changes {stray[0]}{more} (a restore commit only moves skills back)"
    for source, target in moves:
        before = {p[len(source) + 1 :]: old for p, (old, _) in files.items() if _under(p, source)}
        after = {p[len(target) + 1 :]: new for p, (_, new) in files.items() if _under(p, target)}
        removed = [p for p, (_, new) in files.items() if _under(p, source) and new is not None]
        added = [p for p, (old, _) in files.items() if _under(p, target) and old is not None]
        # The archived folder disappears and the live one is new: a move of part of it would
        # leave support files behind, and one into an existing folder would merge two.
        whole = source in removed_dirs and target in added_dirs
        if not before or before != after or removed or added or not whole:
            return f"commit {short} does not move {source} whole to {target}"
    return None


def restores_report_problem(
    short: str, run_json: str, doc: Any, restored: Sequence[str]
) -> str | None:
    """Why the report's run.json disagrees with the restores the commits made, or None."""
    listed = doc.get("restores") if isinstance(doc, dict) else None
    said = sorted(
        str(r.get("skill"))
        for r in (listed if isinstance(listed, list) else [])
        if isinstance(r, dict)
    )
    if said != sorted(restored):
        return (
            f"report commit {short}: {run_json} restores {', '.join(said) or 'nothing'} "
            f"but the commits restore {', '.join(sorted(restored)) or 'nothing'}"
        )
    return None


def _under(path: str, folder: str) -> bool:
    return path.startswith(folder + "/")

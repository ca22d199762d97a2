"""Which curator branch a command means when none is named: the newest pass not merged yet.
`merge` and `review` pick alike, so what `review` shows is what `merge` would merge."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from datetime import datetime

from gitcurator.audit.passes import BRANCH_PREFIX, is_run_id, run_order
from gitcurator.store import Store
from gitcurator.store.branches import branch_names
from gitcurator.store.commits import CommitId


def curator_tips(store: Store) -> dict[str, CommitId]:
    """Run id -> tip of every curator/ branch."""
    tips = {}
    for name in branch_names(store, BRANCH_PREFIX):
        tip = store.branch_tip(name)
        if tip is not None:
            tips[name.removeprefix(BRANCH_PREFIX)] = tip
    return tips


def pending_runs(store: Store, merged: AbstractSet[CommitId]) -> dict[str, CommitId]:
    """Run id -> tip of every curator/ branch whose tip is not in `merged` (the default
    branch's history)."""
    return {run: tip for run, tip in curator_tips(store).items() if tip not in merged}


def newest_run(runs: Iterable[str]) -> str | None:
    """The newest of these run ids (by time, then collision suffix), or None. A curator/ branch
    whose name is no run id (`curator/zzz`, pushed by hand) sorted as the newest and stopped
    `merge` and `review` until it was deleted: it is only taken when named. So is one shaped
    like a run id whose time does not exist (`curator/20261301-999999`)."""
    return max((r for r in runs if _is_real_run(r)), key=run_order, default=None)


def _is_real_run(name: str) -> bool:
    if not is_run_id(name):
        return False
    try:
        datetime.strptime(name[:15], "%Y%m%d-%H%M%S")
    except ValueError:
        return False
    return True

"""Which curator passes exist (branches and merged runs) and what the newest one did."""

from __future__ import annotations

import json
from typing import Any

from gitcurator.report import RUNS_DIR, run_paths
from gitcurator.store import Store, branches

BRANCH_PREFIX = "curator/"


def _run_sort_key(run_id: str) -> tuple[str, int]:
    # 20261130-080000-10 sorts after 20261130-080000-9.
    _, _, n = run_id.partition("-")[2].partition("-")
    return run_id[:15], int(n) if n.isdigit() else 1


def last_pass(store: Store) -> dict[str, Any] | None:
    """The newest pass, from curator branches and from runs merged into HEAD, summarised."""
    pending = {n.removeprefix(BRANCH_PREFIX) for n in branches.branch_names(store, BRANCH_PREFIX)}
    merged = {p.split("/")[2] for p in store.head_entries() if p.startswith(RUNS_DIR + "/")}
    runs = pending | merged
    if not runs:
        return None
    run_id = max(runs, key=_run_sort_key)
    source = store.head_commit() if run_id in merged else store.branch_tip(BRANCH_PREFIX + run_id)
    raw = branches.file_at(store, source, run_paths(run_id)[1]) if source else None
    try:
        doc = json.loads(raw) if raw else {}
    except ValueError:
        doc = {}
    moves = [t.get("to") for t in doc.get("transitions", []) if isinstance(t, dict)]
    return {
        "run_id": run_id,
        "now": doc.get("now"),
        "branch": None if run_id in merged else BRANCH_PREFIX + run_id,
        "merged": run_id in merged,
        "archived": moves.count("archived"),
        "stale": moves.count("stale"),
        "reactivated": moves.count("active"),
    }

"""Which curator passes exist (review branches, merged, rolled back) and the newest one."""

from __future__ import annotations

import json
import re
from typing import Any

from gitcurator.audit.trail import Entry, LoggedCommit, audit_trail
from gitcurator.audit.trailers import BRANCH_PREFIX as BRANCH_PREFIX
from gitcurator.errors import JSON_READ_ERRORS
from gitcurator.lifecycle.report import run_paths
from gitcurator.store import Store, commits, graph, trees
from gitcurator.store.branches import branch_names
from gitcurator.store.history import history_changes

_RUN_ID = re.compile(r"[0-9]{8}-[0-9]{6}(-[0-9]+)?")


def is_run_id(name: str) -> bool:
    """Whether `name` has the form a pass gives its run id (`YYYYMMDD-HHMMSS[-N]`)."""
    return _RUN_ID.fullmatch(name) is not None


def run_order(run_id: str) -> tuple[str, int]:
    """Sort key of run ids `YYYYMMDD-HHMMSS[-N]`: by time, then by collision suffix."""
    parts = run_id.split("-")
    suffix = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 1
    return "-".join(parts[:2]), suffix


def read_trail(store: Store) -> list[Entry]:
    """The audit trail of the default branch and the curator branches waiting for review."""
    branch = store.default_branch()
    tip = store.branch_tip(branch)
    logged = []
    if tip is not None:
        # The history cache list/status also use: a repeat costs only new commits.
        logged = [LoggedCommit(c.commit, c.time, c.message) for c in history_changes(store, tip)]
    known = {commits.commit_id(c.commit) for c in logged}
    for name in branch_names(store, BRANCH_PREFIX):
        pending = store.branch_tip(name)
        if pending is None:
            continue
        own = graph.commits_between(store, pending, known)
        logged += [LoggedCommit(c.id.decode(), c.time, c.message, name) for c in reversed(own)]
    return audit_trail(logged)


def last_pass(store: Store) -> dict[str, Any] | None:
    """The newest pass with its status (pending review, merged, rolled back) and counts."""
    found = [e for e in read_trail(store) if e.kind == "pass" and e.run_id]
    if not found:
        return None
    newest = max(found, key=lambda e: run_order(e.run_id or ""))
    run_id = newest.run_id or ""
    source = store.branch_tip(newest.branch) if newest.branch else store.head_commit()
    raw = trees.file_at(store, source, run_paths(run_id)[1]) if source else None
    try:
        doc = json.loads(raw) if raw else {}
    except JSON_READ_ERRORS:
        doc = {}
    moves = [t.get("to") for t in doc.get("transitions", []) if isinstance(t, dict)]
    return {
        "run_id": run_id,
        "now": doc.get("now"),
        "branch": newest.branch,
        "status": newest.status,
        "merged": newest.branch is None,
        "archived": moves.count("archived"),
        "stale": moves.count("stale"),
        "reactivated": moves.count("active"),
        "umbrellas": len(_list(doc.get("consolidations"))),
        "folded": sum(
            len(_list(c.get("absorbed"))) + len(_list(c.get("demoted")))
            for c in _list(doc.get("consolidations"))
            if isinstance(c, dict)
        ),
    }


def _list(value: object) -> list[Any]:
    # run.json is read back from a branch a person may have edited: trust no shape.
    return value if isinstance(value, list) else []

"""A curator pass: load, plan, build the commits on a new curator/<run-id> branch, report.

The default branch, the index and the work tree are never touched: every commit is built in
the object store and the pass is published by creating one branch ref. `--dry-run` plans and
prints and writes nothing at all (no object, ref, note or cache file).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gitcurator import schemas, statefiles
from gitcurator.audit.passes import BRANCH_PREFIX
from gitcurator.curation.pass_output import print_pass
from gitcurator.curation.umbrella_step import consolidate
from gitcurator.errors import EXIT_FAILURE, EXIT_OK, CuratorError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.lifecycle.inventory import build_rows
from gitcurator.lifecycle.report import (
    archive_message,
    report_markdown,
    report_message,
    run_doc,
    run_paths,
)
from gitcurator.lifecycle.rules import ARCHIVED, STALE, PassPlan, SkillFacts, plan_pass
from gitcurator.render import plural
from gitcurator.skills.archive_paths import archive_targets
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity
from gitcurator.store import branches, commits, trees
from gitcurator.store.history import skill_histories
from gitcurator.store.interrupts import interrupts_deferred
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import Stamped, UsageRecord
from gitcurator.timeutil import format_time, moment_of

if TYPE_CHECKING:
    from gitcurator.umbrella.model_client import ChatClient


@dataclass(frozen=True, slots=True)
class PassResult:
    run_id: str
    base_branch: str
    branch: str | None
    plan: PassPlan
    doc: dict[str, Any]
    # None: the umbrella pass was not asked for; else how many clusters got a usable plan.
    valid_plans: int | None = None

    @property
    def llm_failed(self) -> bool:
        """The umbrella pass asked about clusters and none got a usable plan (max_requests: 0
        asks nothing, which is no failure)."""
        llm = self.doc.get("llm")
        asked = llm and any(c["status"] != "not_reviewed" for c in llm["clusters"])
        return bool(asked) and not self.valid_plans

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "branch": self.branch,
            "archived": self.plan.names(ARCHIVED),
            "stale": self.plan.names(STALE),
            "reactivated": self.plan.names("active", STALE),
            "report": run_paths(self.run_id)[0] if self.branch else None,
            "transitions": self.doc["transitions"],
            "skipped": self.doc["skipped"],
            "consolidations": self.doc["consolidations"],
            "refused": self.doc["refused"],
            "llm": self.doc["llm"],
        }


def run_pass(
    start: Path, *, now: str | None, dry_run: bool, as_json: bool, consolidate: bool = False
) -> int:
    """`gitcurator run`: one pass; prints what it did (or would do).

    Exit 1 when the umbrella pass was asked for and no cluster got a usable plan; the
    lifecycle work and the report are on the branch all the same.
    """
    moment = moment_of(now)
    with open_repo(start) as repo:
        client = _client(repo, consolidate)
        guard = statefiles.read_only() if dry_run else _locked(repo)
        with guard, client or contextlib.nullcontext():
            result = curate(repo, moment, dry_run=dry_run, client=client)
    print_pass(result, dry_run=dry_run, as_json=as_json)
    if result.llm_failed:
        llm = result.doc["llm"]
        print(
            f"gitcurator: error: no cluster got a usable plan from {llm['model']} at "
            f"{llm['endpoint']} ({plural(llm['requests'], 'request')}); "
            + ("see the report on the branch" if result.branch else "see the reasons above"),
            file=sys.stderr,
        )
        return EXIT_FAILURE
    return EXIT_OK


def _client(repo: SkillsRepo, asked: bool) -> ChatClient | None:
    """The model client if the umbrella pass is on (flag or config); refuses before any work
    when the settings cannot reach a model."""
    if not (asked or repo.config.curator.consolidate):
        return None
    from gitcurator.umbrella.model_client import ChatClient

    settings = repo.config.llm
    return ChatClient(
        settings, os.environ, timeout=settings.timeout_seconds, retries=settings.retries
    )


@contextlib.contextmanager
def _locked(repo: SkillsRepo) -> Iterator[None]:
    from gitcurator.curation.pass_lock import pass_lock

    with pass_lock(ledger.state_of(repo.store), 0):
        yield


def curate(
    repo: SkillsRepo, now: datetime, *, dry_run: bool, client: ChatClient | None = None
) -> PassResult:
    """Plan the pass at `now` and, unless `dry_run`, publish it as a curator branch; with a
    `client`, the umbrella pass runs on the same branch after the lifecycle commits."""
    store, policy = repo.store, repo.config.curator
    if not dry_run:
        ledger.flush(store)
    branch = store.default_branch()
    tip = store.branch_tip(branch)
    if tip is None:
        raise CuratorError(f"branch {branch} has no commits yet; run `gitcurator init` first")
    tree = commits.commit_tree_of(store, tip)
    entries = store.tree_entries(tree)
    locations = find_skills(entries, repo.config.skills_dir)
    loaded = ledger.load(store)
    for problem in loaded.problems:
        print(f"gitcurator: warning: {problem}", file=sys.stderr)
    histories = skill_histories(
        store, {loc.folder: identity(loc) for loc in locations}, repo.config.skills_dir, head=tip
    )
    rows = build_rows(locations, loaded.records, histories, policy, now)
    recorded = {n: r.lifecycle.value for n, r in loaded.records.items() if r.lifecycle}
    facts = [
        SkillFacts(
            r.name,
            r.path,
            r.origin,
            r.pinned,
            r.last_activity_at,
            r.created_at,
            recorded.get(r.name),
        )
        for r in rows
        if r.state != ARCHIVED
    ]
    plan = plan_pass(facts, policy, now)
    run_id = _run_id(store, now)
    before = {
        r.name: ARCHIVED if r.state == ARCHIVED else recorded.get(r.name, "active") for r in rows
    }
    archived_paths = archive_targets(
        [(t.name, t.path) for t in plan.archived], entries, repo.config.skills_dir
    )
    doc = run_doc(
        run_id=run_id,
        branch=None,
        base_commit=tip.decode(),
        plan=plan,
        policy=policy,
        states_before=before,
        archived_paths=archived_paths,
    )
    head = tip
    if plan.archived and not dry_run:
        moved = trees.edit_tree(
            store, tree, [(t.path, archived_paths[t.name]) for t in plan.archived]
        )
        head = commits.write_commit(store, moved, [head], archive_message(run_id, plan.archived))
    valid_plans = None
    if client is not None:
        started = time.monotonic()
        outcome = consolidate(
            store,
            repo.config,
            client,
            run_id=run_id,
            head=head,
            rows=rows,
            retired={t.name for t in plan.archived},
            now=now,
            dry_run=dry_run,
        )
        head, valid_plans = outcome.head, outcome.valid_plans
        doc["consolidations"], doc["refused"] = outcome.consolidations, outcome.refused
        doc["llm"] = outcome.llm_doc(client, time.monotonic() - started)
        _count_folds(doc, before)
    publish = bool(plan.transitions or doc["consolidations"] or doc["refused"])
    doc["branch"] = BRANCH_PREFIX + run_id if publish else None
    schemas.check(doc, "run-report", f"run.json of {run_id}")
    if not publish or dry_run:
        return PassResult(run_id, branch, None, plan, doc, valid_plans)
    report_md, run_json = run_paths(run_id)
    files = {
        report_md: report_markdown(doc).encode(),
        run_json: (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode(),
    }
    final_tree = trees.edit_tree(store, commits.commit_tree_of(store, head), files=files)
    head = commits.write_commit(store, final_tree, [head], report_message(run_id, doc))
    # The branch and the states it reports go together: a Ctrl-C here waits for both, so the
    # pass is never published without them (or reported as merely "interrupted").
    try:
        with interrupts_deferred():
            if not branches.create_branch(store, BRANCH_PREFIX + run_id, head):
                raise CuratorError(f"branch {BRANCH_PREFIX + run_id} appeared meanwhile; run again")
            _record_states(repo, plan)
    except KeyboardInterrupt:
        # Held until both were done: the pass is complete, only its summary is not printed.
        print(
            f"gitcurator: the pass was published as {BRANCH_PREFIX + run_id} before stopping; "
            f"review it with `gitcurator log` or `git log {branch}..{BRANCH_PREFIX + run_id}`",
            file=sys.stderr,
        )
        raise
    except CuratorError as exc:
        if store.branch_tip(BRANCH_PREFIX + run_id) != head:
            raise
        # The branch is out; only the stale/active states it reports could not be recorded
        # (the next pass reports those transitions again).
        raise CuratorError(
            f"the pass was published as {BRANCH_PREFIX + run_id}, but its lifecycle states "
            f"were not recorded: {exc}"
        ) from None
    return PassResult(run_id, branch, BRANCH_PREFIX + run_id, plan, doc, valid_plans)


def _count_folds(doc: dict[str, Any], states_before: dict[str, str]) -> None:
    """The after-counts with the umbrellas applied: folded skills are archived now (they
    moved to .archive/), and each new umbrella is one more active skill."""
    state = dict(states_before)
    state.update({t["skill"]: t["to"] for t in doc["transitions"]})
    after = Counter(state.values())
    for fold in doc["consolidations"]:
        for name in fold["absorbed"] + fold["demoted"]:
            after[state.get(name, "active")] -= 1
            after[ARCHIVED] += 1
        if not fold["existing"]:
            after["active"] += 1
    doc["counts"]["after"] = {k: v for k, v in sorted(after.items()) if v > 0}


def _run_id(store: Any, now: datetime) -> str:
    base = now.strftime("%Y%m%d-%H%M%S")
    taken = set(branches.branch_names(store, BRANCH_PREFIX))
    run_id, n = base, 1
    while BRANCH_PREFIX + run_id in taken:
        n += 1
        run_id = f"{base}-{n}"
    return run_id


def _record_states(repo: SkillsRepo, plan: PassPlan) -> None:
    """Remember stale/active in the notes so the next pass sees what changed since."""
    changes = {t.name: t.after for t in plan.transitions if t.after != ARCHIVED}
    if not changes:
        return
    stamp_at = format_time(plan.now)

    def change(records: dict[str, UsageRecord]) -> set[str]:
        for name, state in changes.items():
            record = records.get(name) or UsageRecord(name)
            records[name] = replace(record, lifecycle=Stamped(state, stamp_at))
        return set(changes)

    ledger.update(repo.store, change, "gitcurator: record lifecycle states of a pass")

"""A curator pass: load, plan, build the commits on a new curator/<run-id> branch, report.

The default branch, the index and the work tree are never touched: every commit is built in
the object store and the pass is published by creating one branch ref. `--dry-run` plans and
prints and writes nothing at all (no object, ref, note or cache file).
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator import schemas, statefiles, telemetry
from gitcurator.errors import EXIT_OK, CuratorError
from gitcurator.inventory import build_rows
from gitcurator.lifecycle import ARCHIVED, STALE, PassPlan, SkillFacts, plan_pass
from gitcurator.naming import identity
from gitcurator.passes import BRANCH_PREFIX
from gitcurator.records import Stamped, UsageRecord
from gitcurator.render import emit_json, plural
from gitcurator.report import archive_message, report_markdown, report_message, run_doc, run_paths
from gitcurator.repository import SkillsRepo, open_repo
from gitcurator.skill import ARCHIVE_DIR, find_skills
from gitcurator.store import branches
from gitcurator.store.history import skill_histories
from gitcurator.timeutil import format_time, parse_time, utc_now


@dataclass(frozen=True, slots=True)
class PassResult:
    run_id: str
    base_branch: str
    branch: str | None
    plan: PassPlan
    doc: dict[str, Any]

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
        }


def run_pass(start: Path, *, now: str | None, dry_run: bool, as_json: bool) -> int:
    """`gitcurator run`: one deterministic pass; prints what it did (or would do)."""
    moment = parse_time(now, "--now") if now else utc_now()
    with open_repo(start) as repo:
        guard = statefiles.read_only() if dry_run else _locked(repo)
        with guard:
            result = curate(repo, moment, dry_run=dry_run)
    _print(result, dry_run=dry_run, as_json=as_json)
    return EXIT_OK


@contextlib.contextmanager
def _locked(repo: SkillsRepo) -> Iterator[None]:
    from gitcurator.passlock import pass_lock

    with pass_lock(telemetry.state_of(repo.store), 0):
        yield


def curate(repo: SkillsRepo, now: datetime, *, dry_run: bool) -> PassResult:
    """Plan the pass at `now` and, unless `dry_run`, publish it as a curator branch."""
    store, policy = repo.store, repo.config.curator
    if not dry_run:
        telemetry.flush(store)
    branch = store.default_branch()
    tip = store.branch_tip(branch)
    if tip is None:
        raise CuratorError(f"branch {branch} has no commits yet; run `gitcurator init` first")
    tree = branches.commit_tree_of(store, tip)
    entries = store.tree_entries(tree)
    locations = find_skills(entries, repo.config.skills_dir)
    loaded = telemetry.load(store)
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
    archived_paths = _archive_targets(plan, entries, repo.config.skills_dir)
    publish = bool(plan.transitions) and not dry_run
    doc = run_doc(
        run_id=run_id,
        branch=BRANCH_PREFIX + run_id if plan.transitions else None,
        base_commit=tip.decode(),
        plan=plan,
        policy=policy,
        states_before=before,
        archived_paths=archived_paths,
    )
    schemas.check(doc, "run-report", f"run.json of {run_id}")
    if not publish:
        return PassResult(run_id, branch, None, plan, doc)
    head = tip
    if plan.archived:
        moved = branches.edit_tree(
            store, tree, [(t.path, archived_paths[t.name]) for t in plan.archived]
        )
        head = branches.write_commit(store, moved, [head], archive_message(run_id, plan.archived))
    report_md, run_json = run_paths(run_id)
    files = {
        report_md: report_markdown(doc).encode(),
        run_json: (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode(),
    }
    final_tree = branches.edit_tree(store, branches.commit_tree_of(store, head), files=files)
    head = branches.write_commit(store, final_tree, [head], report_message(run_id, doc))
    if not branches.create_branch(store, BRANCH_PREFIX + run_id, head):
        raise CuratorError(f"branch {BRANCH_PREFIX + run_id} appeared meanwhile; run again")
    _record_states(repo, plan)
    return PassResult(run_id, branch, BRANCH_PREFIX + run_id, plan, doc)


def _run_id(store: Any, now: datetime) -> str:
    base = now.strftime("%Y%m%d-%H%M%S")
    taken = set(branches.branch_names(store, BRANCH_PREFIX))
    run_id, n = base, 1
    while BRANCH_PREFIX + run_id in taken:
        n += 1
        run_id = f"{base}-{n}"
    return run_id


def _archive_targets(plan: PassPlan, entries: dict[str, Any], skills_dir: str) -> dict[str, str]:
    """Where each archived folder goes: .archive/ + its path under skills_dir, suffixed -2,
    -3, ... when that folder is already taken."""
    prefix = f"{skills_dir}/" if skills_dir else ""
    archive = f"{prefix}{ARCHIVE_DIR}/"
    # Only folders under .archive/ can collide; listing every folder of 10k skills is waste.
    folders = {f for p in entries if p.startswith(archive) for f in _parents(p.rsplit("/", 1)[0])}
    targets: dict[str, str] = {}
    for t in plan.archived:
        rel = t.path[len(prefix) :]
        target = f"{prefix}{ARCHIVE_DIR}/{rel}"
        n = 1
        while target in folders or target in targets.values():
            n += 1
            target = f"{prefix}{ARCHIVE_DIR}/{rel}-{n}"
        targets[t.name] = target
    return targets


def _parents(folder: str) -> list[str]:
    parts = folder.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


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

    telemetry.update(repo.store, change, "gitcurator: record lifecycle states of a pass")


def _print(result: PassResult, *, dry_run: bool, as_json: bool) -> None:
    if as_json:
        emit_json({**result.to_json(), "dry_run": dry_run})
        return
    plan = result.plan
    if not plan.transitions:
        print(
            f"nothing to do at {format_time(plan.now)}: no skill is due to change "
            f"({plural(len(plan.skipped), 'skill')} left alone)"
        )
        return
    verb = "would" if dry_run else "will"
    print(f"{'dry run: ' if dry_run else ''}pass {result.run_id} at {format_time(plan.now)}")
    for t in plan.transitions:
        print(f"  {t.before} -> {t.after}: {t.name} ({t.reason})")
    print(
        f"  {plural(len(plan.skipped), 'skill')} left alone (pinned, protected, not curated, "
        "too young); see the report"
    )
    if dry_run:
        print("nothing was written")
        return
    print(
        f"branch {result.branch} holds the pass; review it with "
        f"`git log --stat main..{result.branch}`, then `gitcurator merge {result.run_id}` "
        f"({verb} change the default branch only then)"
    )

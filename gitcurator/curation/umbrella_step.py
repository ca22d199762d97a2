"""The umbrella pass: ask the model about each cluster, apply what passes the rules.

It runs after the lifecycle pass, on the commits of the same curator branch: each applied
umbrella is one commit built in the object store on top of the previous one. A cluster whose
request fails, or whose reply is not a plan, is reported and the pass goes on; the caller
decides the exit code from `Outcome.valid_plans`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from gitcurator import schemas
from gitcurator.config import Config
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.lifecycle.report import umbrella_message
from gitcurator.store import ObjectID, Store, commits, trees
from gitcurator.umbrella.candidates import files_by_folder, select_candidates
from gitcurator.umbrella.clusters import ARCHIVED, Candidate, Cluster, clusters, left_out_because
from gitcurator.umbrella.model_client import ChatClient, LlmError, endpoint_name
from gitcurator.umbrella.prompt import SCHEMA_NAME, SYSTEM_PROMPT, cluster_message
from gitcurator.umbrella.proposal_checks import Context, Member, Refused, Umbrella, check_umbrella

# After this many clusters in a row fail in transport, the endpoint is down: stop asking.
MAX_FAILURES_IN_A_ROW = 3

_LEFT_OUT_WORDS = {
    "not_curated": "origin {origin}: only agent-made skills are curated",
    "pinned": "pinned",
    "protected": "protected by the config's protect: list",
    "too_young": "younger than min_age_days",
    "archived": "archived",
}


@dataclass(slots=True)
class Outcome:
    """What the umbrella pass did: the new tip, and the report's pieces."""

    head: ObjectID
    consolidations: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, str]] = field(default_factory=list)
    clusters: list[dict[str, Any]] = field(default_factory=list)
    valid_plans: int = 0
    stopped: str | None = None

    def llm_doc(self, client: ChatClient, seconds: float) -> dict[str, Any]:
        return {
            "model": client.model,
            "endpoint": endpoint_name(client.settings),
            "mode": client.mode,
            "requests": client.asks,
            "http_requests": client.http_requests,
            "prompt_tokens": client.prompt_tokens,
            "completion_tokens": client.completion_tokens,
            "wall_seconds": round(seconds, 3),
            "stopped": self.stopped,
            "clusters": self.clusters,
        }


def consolidate(
    store: Store,
    config: Config,
    client: ChatClient,
    *,
    run_id: str,
    head: ObjectID,
    rows: Sequence[SkillRow],
    retired: set[str],
    now: datetime,
    dry_run: bool,
) -> Outcome:
    """Ask about every cluster of the tree at `head` (within llm.max_requests) and commit each
    umbrella that passes the rules on top of `head`. `retired` names the skills the
    lifecycle pass just archived."""
    rows = [replace(r, state=ARCHIVED) if r.name in retired else r for r in rows]
    entries = store.tree_entries(commits.commit_tree_of(store, head))
    blobs = {p: sha for p, (sha, _mode) in entries.items()}
    loaded = select_candidates(rows, blobs, store.read_blob, config.curator, now)
    for warning in loaded.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)
    found = clusters(loaded.candidates)
    by_name = {c.name: c for c in loaded.candidates}
    clustered = {by_name[n].path for c in found for n in c.members}
    owned = files_by_folder(entries, clustered)
    ctx: Context[ObjectID] = Context(
        live={r.name: r.path for r in rows if r.state != ARCHIVED},
        ineligible=_ineligible(rows, config, now),
        paths=frozenset(entries),
        load=store.read_blob,
        min_retention=config.curator.min_retention,
        skills_dir=config.skills_dir,
    )
    outcome = Outcome(head)
    failures = 0
    progress = _Progress(len(found))
    for k, cluster in enumerate(found, 1):
        doc: dict[str, Any] = {"key": cluster.key, "members": list(cluster.members)}
        outcome.clusters.append(doc)
        if outcome.stopped is None and client.asks >= config.llm.max_requests:
            outcome.stopped = f"llm.max_requests={config.llm.max_requests} reached"
        if outcome.stopped is not None:
            doc["status"] = "not_reviewed"
            continue
        progress.show(k, cluster, client)
        message = cluster_message(cluster, by_name)
        try:
            reply = client.ask(
                SYSTEM_PROMPT, message, schemas.load("consolidation-plan"), SCHEMA_NAME
            )
        except LlmError as exc:
            failures += 1
            _failed(outcome, doc, cluster, str(exc))
            if failures >= MAX_FAILURES_IN_A_ROW:
                outcome.stopped = f"{failures} requests in a row failed"
            continue
        failures = 0
        plan = _plan(reply.content)
        if isinstance(plan, str):
            _failed(outcome, doc, cluster, f"the model's reply is not a usable plan: {plan}")
            continue
        doc["plan"] = plan
        members = _members(cluster, by_name, owned)
        applied = _apply_plan(store, plan, cluster, members, ctx, outcome, run_id, doc, dry_run)
        if applied or not plan["umbrellas"]:
            outcome.valid_plans += 1
        doc["status"] = "applied" if applied else ("kept" if not plan["umbrellas"] else "refused")
    progress.done()
    return outcome


def _apply_plan(
    store: Store,
    plan: Mapping[str, Any],
    cluster: Cluster,
    members: Mapping[str, Member[ObjectID]],
    ctx: Context[ObjectID],
    outcome: Outcome,
    run_id: str,
    doc: dict[str, Any],
    dry_run: bool,
) -> int:
    applied = 0
    doc["umbrellas"] = []
    for proposal in plan["umbrellas"]:
        name = str(proposal["name"])
        try:
            umbrella = check_umbrella(proposal, cluster, members, ctx)
        except Refused as exc:
            outcome.refused.append({"what": f"umbrella {name} ({cluster.key})", "reason": str(exc)})
            doc["umbrellas"].append({"name": name, "applied": False, "reason": str(exc)})
            continue
        # A dry run writes no object: the umbrella is checked, reported, and not built.
        commit = None
        if not dry_run:
            commit = _commit(store, umbrella, outcome.head, run_id, cluster.key)
            outcome.head = commit
        ctx.applied(umbrella)
        applied += 1
        doc["umbrellas"].append({"name": name, "applied": True})
        folded: dict[str, Any] = {
            "umbrella": umbrella.name,
            "path": umbrella.folder,
            "existing": umbrella.existing,
            "absorbed": list(umbrella.absorbed),
            "demoted": list(umbrella.demoted),
            "reason": umbrella.reason,
            "retention": umbrella.retention,
            "cluster": cluster.key,
        }
        if commit is not None:
            folded["commit"] = commit.decode()
        outcome.consolidations.append(folded)
    return applied


def _commit(
    store: Store, umbrella: Umbrella[ObjectID], head: ObjectID, run_id: str, key: str
) -> ObjectID:
    """One commit: folded skills to .archive/, the umbrella written, support files copied."""
    tree = trees.edit_tree(
        store,
        commits.commit_tree_of(store, head),
        moves=list(umbrella.archived.items()),
        files=umbrella.writes,
        copies=umbrella.copies,
    )
    return commits.write_commit(store, tree, [head], umbrella_message(run_id, umbrella, key))


def _failed(outcome: Outcome, doc: dict[str, Any], cluster: Cluster, reason: str) -> None:
    doc["status"] = "failed"
    doc["error"] = reason
    outcome.refused.append({"what": f"cluster {cluster.key}", "reason": reason})


def _plan(content: str) -> dict[str, Any] | str:
    """The reply as a schema-valid plan, or why it is not one."""
    try:
        doc = json.loads(content)
    except ValueError as exc:
        return f"not JSON ({exc.__class__.__name__}: {str(exc)[:120]})"
    problems = schemas.problems(doc, "consolidation-plan")
    if problems:
        return "breaks the plan schema: " + "; ".join(problems[:3])
    assert isinstance(doc, dict)
    return doc


def _members(
    cluster: Cluster,
    by_name: Mapping[str, Candidate],
    owned: Mapping[str, Mapping[str, tuple[ObjectID, int]]],
) -> dict[str, Member[ObjectID]]:
    return {
        name: Member(
            by_name[name], dict(by_name[name].frontmatter), owned.get(by_name[name].path, {})
        )
        for name in cluster.members
    }


def _ineligible(rows: Sequence[SkillRow], config: Config, now: datetime) -> dict[str, str]:
    found = {}
    for row in rows:
        why = left_out_because(row, config.curator, now)
        if why is not None:
            found[row.name] = _LEFT_OUT_WORDS.get(why, why).format(origin=row.origin)
    return found


class _Progress:
    """`cluster k of n` on stderr, when stderr is a terminal (never in a pipe or a log)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.on = sys.stderr.isatty() and total > 0
        self.started = time.monotonic()

    def show(self, k: int, cluster: Cluster, client: ChatClient) -> None:
        if self.on:
            tokens = client.prompt_tokens + client.completion_tokens
            print(
                f"\r\033[Kcluster {k} of {self.total} ({cluster.key}, "
                f"{len(cluster.members)} skills); {tokens} tokens so far",
                end="",
                file=sys.stderr,
                flush=True,
            )

    def done(self) -> None:
        if self.on:
            print(
                f"\r\033[K{self.total} clusters in {time.monotonic() - self.started:.1f} s",
                file=sys.stderr,
            )

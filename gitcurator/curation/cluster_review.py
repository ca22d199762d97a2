"""Planning the umbrella step: ask the model about each cluster, check what it proposes, decide.

Nothing is written here. Each proposal is checked against the library as the umbrellas
accepted before it leave it (`Context.after`), so the plan that comes out is exactly what the
apply step commits, one umbrella after the other. A cluster whose request fails, or whose
reply is not a plan, is reported and the next one is asked; after MAX_FAILURES_IN_A_ROW
transport failures the endpoint is taken for down and the rest are not asked. The step ends
in bounded time whatever the model does: each reply is capped (llm.max_tokens, else a cap
from the cluster's size), each request is bounded by llm.timeout_seconds, and once
llm.budget_seconds have gone by the clusters left are "not reviewed", with that reason.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from gitcurator import schemas
from gitcurator.config import Config, LlmSettings
from gitcurator.curation.umbrella_plan import (
    APPLIED,
    FAILED,
    KEPT,
    NOT_REVIEWED,
    REFUSED,
    ClusterReview,
    Fold,
    ModelUse,
    Refusal,
    UmbrellaPlan,
    Verdict,
)
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.store import ObjectID
from gitcurator.umbrella.candidates import Candidate, files_by_folder, select_candidates
from gitcurator.umbrella.clusters import Cluster, clusters
from gitcurator.umbrella.eligibility import ARCHIVED, ineligible
from gitcurator.umbrella.model_errors import BudgetSpent, LlmError, endpoint_name
from gitcurator.umbrella.model_reply import Reply, reply_cap
from gitcurator.umbrella.prompt import SCHEMA_NAME, SYSTEM_PROMPT, cluster_message
from gitcurator.umbrella.proposal_checks import Context, Member, Refused, check_umbrella

# After this many clusters in a row fail in transport, the endpoint is down: stop asking.
MAX_FAILURES_IN_A_ROW = 3


class Model(Protocol):
    """What the pass needs of a model client (umbrella.model_client.ChatClient is one)."""

    @property
    def settings(self) -> LlmSettings: ...
    @property
    def model(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def asks(self) -> int: ...
    @property
    def http_requests(self) -> int: ...
    @property
    def prompt_tokens(self) -> int: ...
    @property
    def completion_tokens(self) -> int: ...

    def ask(
        self,
        system: str,
        user: str,
        schema: Mapping[str, Any],
        schema_name: str,
        *,
        max_tokens: int | None = None,
        within: float | None = None,
    ) -> Reply:
        """One JSON reply capped at `max_tokens`, within `within` seconds; or LlmError
        (BudgetSpent when `within` ran out)."""


class ClusterProgress(Protocol):
    """Told how the umbrella step gets on (the command shows it on a terminal)."""

    def started(self, clusters: int) -> None:
        """`clusters` clusters were found; asking begins."""

    def asking(self, k: int, cluster: Cluster, tokens: int) -> None:
        """Cluster `k` (from 1) is being asked about; `tokens` spent so far."""

    def finished(self) -> None:
        """Every cluster was asked about or left."""


def review_clusters(
    rows: Sequence[SkillRow],
    entries: Mapping[str, tuple[ObjectID, int]],
    read: Callable[[ObjectID], bytes],
    config: Config,
    now: datetime,
    model: Model,
    progress: ClusterProgress | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> UmbrellaPlan:
    """Ask about every cluster of the tree `entries` (within llm.max_requests and
    llm.budget_seconds) and decide each proposal; `rows` mark the skills the lifecycle is
    archiving as archived."""
    started = clock()
    budget = config.llm.budget_seconds
    blobs = {p: sha for p, (sha, _mode) in entries.items()}
    loaded = select_candidates(rows, blobs, read, config.curator, now)
    found = clusters(loaded.candidates)
    by_name = {c.name: c for c in loaded.candidates}
    owned = files_by_folder(entries, {by_name[n].path for c in found for n in c.members})
    ctx: Context[ObjectID] = Context(
        live={r.name: r.path for r in rows if r.state != ARCHIVED},
        ineligible=ineligible(rows, config.curator, now),
        paths=frozenset(entries),
        load=read,
        min_retention=config.curator.min_retention,
        skills_dir=config.skills_dir,
    )
    reviews: list[ClusterReview] = []
    folds: list[Fold] = []
    refused: list[Refusal] = []
    valid_plans = failures = 0
    stopped: str | None = None
    if progress is not None:
        progress.started(len(found))
    for k, cluster in enumerate(found, 1):
        if stopped is None and model.asks >= config.llm.max_requests:
            stopped = f"llm.max_requests={config.llm.max_requests} reached"
        left = budget - (clock() - started)
        if stopped is None and left <= 0:
            stopped = _budget_spent(budget)
        if stopped is not None:
            reviews.append(ClusterReview(cluster.key, cluster.members, NOT_REVIEWED))
            continue
        if progress is not None:
            progress.asking(k, cluster, model.prompt_tokens + model.completion_tokens)
        message = cluster_message(cluster, by_name)
        try:
            reply = model.ask(
                SYSTEM_PROMPT,
                message,
                schemas.load("consolidation-plan"),
                SCHEMA_NAME,
                max_tokens=reply_cap(message),
                within=left,
            )
        except BudgetSpent:
            stopped = _budget_spent(budget)
            reviews.append(ClusterReview(cluster.key, cluster.members, NOT_REVIEWED))
            continue
        except LlmError as exc:
            failures += 1
            reviews.append(_failed(cluster, str(exc), refused))
            if failures >= MAX_FAILURES_IN_A_ROW:
                stopped = f"{failures} requests in a row failed"
            continue
        failures = 0
        answer = parse_answer(reply.content)
        if isinstance(answer, str):
            why = f"the model's reply is not a usable plan: {answer}"
            reviews.append(_failed(cluster, why, refused))
            continue
        review, accepted, refusals, ctx = _decide(
            answer, cluster, _members(cluster, by_name, owned), ctx
        )
        reviews.append(review)
        folds += accepted
        refused += refusals
        if review.status != REFUSED:
            valid_plans += 1
    if progress is not None:
        progress.finished()
    use = ModelUse(
        model=model.model,
        endpoint=endpoint_name(model.settings),
        mode=model.mode,
        requests=model.asks,
        http_requests=model.http_requests,
        prompt_tokens=model.prompt_tokens,
        completion_tokens=model.completion_tokens,
        wall_seconds=round(clock() - started, 3),
    )
    return UmbrellaPlan(
        tuple(folds),
        tuple(refused),
        tuple(reviews),
        valid_plans,
        stopped,
        use,
        tuple(loaded.warnings),
    )


def _budget_spent(budget: float) -> str:
    return f"llm.budget_seconds={budget:g} spent"


def parse_answer(content: str) -> dict[str, Any] | str:
    """The reply as a schema-valid plan, or why it is not one."""
    try:
        # strict=False: a raw newline inside a string is unambiguous, and the JSON grammar of
        # llama.cpp-style servers lets a small model write one.
        doc = json.loads(content, strict=False)
    except ValueError as exc:
        return f"not JSON ({exc.__class__.__name__}: {str(exc)[:120]})"
    except RecursionError:
        return "not a plan (JSON nested too deeply to read)"
    problems = schemas.problems(doc, "consolidation-plan")
    if problems:
        return "breaks the plan schema: " + "; ".join(problems[:3])
    assert isinstance(doc, dict)
    return doc


def _decide(
    answer: Mapping[str, Any],
    cluster: Cluster,
    members: Mapping[str, Member[ObjectID]],
    ctx: Context[ObjectID],
) -> tuple[ClusterReview, list[Fold], list[Refusal], Context[ObjectID]]:
    """Each proposal of a usable answer checked in turn, each against the context the ones
    accepted before it leave; the context after the last."""
    verdicts, folds, refused = [], [], []
    for proposal in answer["umbrellas"]:
        name = str(proposal["name"])
        try:
            umbrella = check_umbrella(proposal, cluster, members, ctx)
        except Refused as exc:
            refused.append(Refusal(f"umbrella {name} ({cluster.key})", str(exc)))
            verdicts.append(Verdict(name, str(exc)))
            continue
        ctx = ctx.after(umbrella)
        folds.append(Fold(umbrella, cluster.key))
        verdicts.append(Verdict(name))
    # A plan that keeps every skill is a usable answer too: status kept, not refused.
    status = APPLIED if folds else (KEPT if not verdicts else REFUSED)
    review = ClusterReview(cluster.key, cluster.members, status, None, answer, tuple(verdicts))
    return review, folds, refused, ctx


def _failed(cluster: Cluster, reason: str, refused: list[Refusal]) -> ClusterReview:
    refused.append(Refusal(f"cluster {cluster.key}", reason))
    return ClusterReview(cluster.key, cluster.members, FAILED, reason)


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

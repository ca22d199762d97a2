"""What `review` shows of a pass, read from its run.json as stored (pure: the pass is never
recomputed; the branch's facts and the catalogue figures are given)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.lifecycle.rules import ACTIVE, ARCHIVED, STALE

# The lifecycle's reasons say when a skill was last active: `(last activity 2026-07-23)` or
# `(never used, created 2026-05-17)`.
_LAST = re.compile(r"last activity (\S+?)\)|never used, created (\S+?)\)")


@dataclass(frozen=True, slots=True)
class Moved:
    """A skill the lifecycle moved: archived, marked stale or active again."""

    skill: str
    path: str
    reason: str
    last_activity: str  # a date, `never used (created <date>)`, or `unknown`
    archived_path: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        doc = {"skill": self.skill, "path": self.path, "reason": self.reason}
        doc["last_activity"] = self.last_activity
        if self.archived_path is not None:
            doc["archived_path"] = self.archived_path
        return doc


@dataclass(frozen=True, slots=True)
class Folded:
    """A skill an umbrella took in: absorbed, or demoted to a file of the umbrella."""

    skill: str
    retention: float | None  # share of its content the umbrella kept (None: not stored)
    demoted_to: str | None = None  # repo-relative file (None: absorbed)

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"skill": self.skill, "retention": self.retention, "demoted_to": self.demoted_to}


@dataclass(frozen=True, slots=True)
class UmbrellaReview:
    """One umbrella of the pass and what it took in."""

    name: str
    path: str
    existing: bool
    reason: str
    commit: str | None
    folded: tuple[Folded, ...]

    @property
    def absorbed(self) -> list[str]:
        """The skills it absorbed (not demoted)."""
        return [f.skill for f in self.folded if f.demoted_to is None]

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "umbrella": self.name,
            "path": self.path,
            "existing": self.existing,
            "reason": self.reason,
            "commit": self.commit,
            "folded": [f.to_json() for f in self.folded],
        }


@dataclass(frozen=True, slots=True)
class PassReview:
    """A pass in one screen: counts, moves, umbrellas, refusals and the catalogue's cost."""

    run_id: str
    branch: str
    status: str  # `pending review` or `merged`
    now: str
    base: str | None  # the default branch's commit the pass started from
    tip: str
    counts_before: Mapping[str, int]
    counts_after: Mapping[str, int]
    archived: tuple[Moved, ...]
    stale: tuple[Moved, ...]
    reactivated: tuple[Moved, ...]
    umbrellas: tuple[UmbrellaReview, ...]
    refused: tuple[tuple[str, str], ...]  # (what, reason)
    left_alone: int
    catalogue_before: CatalogueCost | None
    catalogue_after: CatalogueCost | None

    @property
    def live_before(self) -> int:
        """Skills not archived before the pass."""
        return live(self.counts_before)

    @property
    def live_after(self) -> int:
        """Skills not archived after it."""
        return live(self.counts_after)

    def to_json(self) -> dict[str, Any]:
        """`review --json`."""
        catalogue = None
        if self.catalogue_before is not None and self.catalogue_after is not None:
            catalogue = {
                "before": self.catalogue_before.as_doc(),
                "after": self.catalogue_after.as_doc(),
            }
        return {
            "run_id": self.run_id,
            "branch": self.branch,
            "status": self.status,
            "now": self.now,
            "base_commit": self.base,
            "tip": self.tip,
            "counts": {
                "before": dict(self.counts_before),
                "after": dict(self.counts_after),
                "live_before": self.live_before,
                "live_after": self.live_after,
            },
            "archived": [m.to_json() for m in self.archived],
            "stale": [m.to_json() for m in self.stale],
            "reactivated": [m.to_json() for m in self.reactivated],
            "umbrellas": [u.to_json() for u in self.umbrellas],
            "refused": [{"what": w, "reason": r} for w, r in self.refused],
            "left_alone": self.left_alone,
            "catalogue": catalogue,
        }


def live(counts: Mapping[str, int]) -> int:
    """Skills in any state but archived."""
    return sum(n for state, n in counts.items() if state != ARCHIVED)


def stored_catalogue(doc: Mapping[str, Any]) -> tuple[CatalogueCost, CatalogueCost] | None:
    """The catalogue figures run.json holds (passes made before they were stored have none)."""
    found = doc.get("catalogue")
    if not isinstance(found, dict):
        return None
    costs = [_cost(found.get(side)) for side in ("before", "after")]
    if costs[0] is None or costs[1] is None:
        return None
    return costs[0], costs[1]


def pass_review(
    doc: Mapping[str, Any],
    *,
    branch: str,
    status: str,
    base: str | None,
    tip: str,
    catalogue: tuple[CatalogueCost, CatalogueCost] | None,
) -> PassReview:
    """The review of the pass whose run.json (schema-checked) is `doc`."""
    transitions = [t for t in doc["transitions"] if isinstance(t, dict)]

    def moved(to: str) -> tuple[Moved, ...]:
        return tuple(_moved(t) for t in transitions if t.get("to") == to)

    return PassReview(
        run_id=doc["run_id"],
        branch=branch,
        status=status,
        now=doc["now"],
        base=base,
        tip=tip,
        counts_before=_counts(doc["counts"].get("before")),
        counts_after=_counts(doc["counts"].get("after")),
        archived=moved(ARCHIVED),
        stale=moved(STALE),
        reactivated=moved(ACTIVE),
        umbrellas=tuple(_umbrella(c, doc.get("llm")) for c in _dicts(doc.get("consolidations"))),
        refused=tuple(
            (str(r.get("what", "")), str(r.get("reason", ""))) for r in _dicts(doc.get("refused"))
        ),
        left_alone=len(_dicts(doc.get("skipped"))),
        catalogue_before=catalogue[0] if catalogue else None,
        catalogue_after=catalogue[1] if catalogue else None,
    )


def last_activity(reason: str) -> str:
    """When a skill was last active, as its lifecycle reason says."""
    found = _LAST.search(reason)
    if found is None:
        return "unknown"
    return found.group(1) or f"never used (created {found.group(2)})"


def _moved(t: Mapping[str, Any]) -> Moved:
    reason = str(t.get("reason", ""))
    archived_path = t.get("archived_path")
    return Moved(
        str(t.get("skill", "")),
        str(t.get("path", "")),
        reason,
        last_activity(reason),
        str(archived_path) if archived_path is not None else None,
    )


def _umbrella(c: Mapping[str, Any], llm: object) -> UmbrellaReview:
    name, path = str(c.get("umbrella", "")), str(c.get("path", ""))
    found = c.get("retention")
    retention: Mapping[str, Any] = found if isinstance(found, dict) else {}
    targets = _demote_targets(llm, str(c.get("cluster", "")), name)

    def kept(skill: str) -> float | None:
        value = retention.get(skill)
        return float(value) if isinstance(value, int | float) else None

    folded = [Folded(str(s), kept(str(s))) for s in _list(c.get("absorbed"))]
    for skill in map(str, _list(c.get("demoted"))):
        where = targets.get(skill)
        folded.append(Folded(skill, kept(skill), f"{path}/{where}" if where else path))
    commit = c.get("commit")
    return UmbrellaReview(
        name,
        path,
        bool(c.get("existing")),
        str(c.get("reason", "")),
        commit if isinstance(commit, str) else None,
        tuple(folded),
    )


def _demote_targets(llm: object, cluster: str, umbrella: str) -> dict[str, str]:
    """Where the model's plan put each demoted skill (run.json keeps the plan per cluster)."""
    if not isinstance(llm, dict):
        return {}
    for c in _dicts(llm.get("clusters")):
        plan = c.get("plan")
        if c.get("key") != cluster or not isinstance(plan, dict):
            continue
        for u in _dicts(plan.get("umbrellas")):
            if u.get("name") == umbrella:
                return {
                    str(d.get("skill")): str(d.get("to"))
                    for d in _dicts(u.get("demote"))
                    if isinstance(d.get("to"), str)
                }
    return {}


def _counts(value: object) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in sorted(value.items()) if isinstance(v, int)}


def _cost(value: object) -> CatalogueCost | None:
    if not isinstance(value, dict):
        return None
    skills, tokens, tokenizer = value.get("skills"), value.get("tokens"), value.get("tokenizer")
    if isinstance(skills, int) and isinstance(tokens, int) and isinstance(tokenizer, str):
        return CatalogueCost(skills, tokens, tokenizer)
    return None


def _list(value: object) -> list[Any]:
    # run.json comes from a branch anyone may have pushed: trust no shape the schema allows.
    return value if isinstance(value, list) else []


def _dicts(value: object) -> list[Mapping[str, Any]]:
    return [v for v in _list(value) if isinstance(v, dict)]


def summary_counts(review: PassReview) -> Sequence[tuple[str, int, int]]:
    """(state, before, after) for every state either side has."""
    states = sorted(set(review.counts_before) | set(review.counts_after))
    return [(s, review.counts_before.get(s, 0), review.counts_after.get(s, 0)) for s in states]

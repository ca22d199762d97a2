"""A pass's review read from its run.json as stored (pure: the pass is never recomputed; the
branch's facts and, for passes that did not store them, the catalogue figures are given)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gitcurator.json_values import is_count
from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.lifecycle.rules import ACTIVE, ARCHIVED, STALE
from gitcurator.review.model import Folded, Moved, PassReview, Restored, UmbrellaReview

# The lifecycle's reasons say when a skill was last active: `(last activity 2026-07-23)` or
# `(never used, created 2026-05-17)`.
_LAST = re.compile(r"last activity (\S+?)\)|never used, created (\S+?)\)")


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
    merge_refusal: str | None = None,
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
        merge_refusal=merge_refusal,
        kept=tuple(
            (str(k.get("skill", "")), str(k.get("reason", ""))) for k in _dicts(doc.get("kept"))
        ),
        restores=tuple(
            Restored(
                str(r.get("skill", "")),
                str(r.get("from", "")),
                str(r.get("to", "")),
                str(r.get("reason", "")),
            )
            for r in _dicts(doc.get("restores"))
        ),
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
        # A share, 0 to 1: NaN, infinity or a 400-digit number (JSON allows them) is no figure.
        value = retention.get(skill)
        if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1:
            return float(value)
        return None

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
    return {str(k): v for k, v in sorted(value.items()) if is_count(v)}


def _cost(value: object) -> CatalogueCost | None:
    if not isinstance(value, dict):
        return None
    skills, tokens, tokenizer = value.get("skills"), value.get("tokens"), value.get("tokenizer")
    if is_count(skills) and is_count(tokens) and isinstance(tokenizer, str):
        return CatalogueCost(skills, tokens, tokenizer)
    return None


def _list(value: object) -> list[Any]:
    # run.json comes from a branch anyone may have pushed: trust no shape the schema allows.
    return value if isinstance(value, list) else []


def _dicts(value: object) -> list[Mapping[str, Any]]:
    return [v for v in _list(value) if isinstance(v, dict)]

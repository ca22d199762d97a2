"""What the health page shows, as data: built from the skill rows, the passes and the uses per
week (pure; `health/page` renders it)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gitcurator.audit.trail import PENDING, Entry
from gitcurator.health.usage_weeks import HeatMap
from gitcurator.json_values import is_count
from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.timeutil import format_time

STATES = ("active", "stale", "archived")
# The skills table's columns, in order: what each row of the embedded JSON holds.
COLUMNS = (
    ("name", "skill"),
    ("state", "state"),
    ("origin", "origin"),
    ("pinned", "pinned"),
    ("use_count", "uses"),
    ("view_count", "views"),
    ("patch_count", "patches"),
    ("last_activity_at", "last active"),
    ("created_at", "created"),
    ("absorbed_into", "absorbed into"),
    ("path", "folder"),
)


@dataclass(frozen=True, slots=True)
class StatePoint:
    """The skills in each state at `time`: before a pass, now, or if a pending pass merges."""

    label: str
    time: str
    counts: Mapping[str, int]
    projected: bool = False  # what a pass pending review would leave


@dataclass(frozen=True, slots=True)
class PassLine:
    """One pass as the page lists it."""

    run_id: str
    time: str
    status: str
    branch: str | None
    archived: int
    stale: int
    umbrellas: int


@dataclass(frozen=True, slots=True)
class Edge:
    """A skill folded into an umbrella; `pending` while its pass awaits review."""

    absorbed: str
    umbrella: str
    pending: bool = False


@dataclass(frozen=True, slots=True)
class PendingSummary:
    """The newest pass waiting for review: what merging its branch would do."""

    run_id: str
    branch: str
    before: Mapping[str, int]
    after: Mapping[str, int]
    archived: tuple[str, ...]
    stale: tuple[str, ...]
    umbrellas: tuple[tuple[str, tuple[str, ...]], ...]
    refused: tuple[str, ...]
    # run.json's catalogue before -> after, (skills, tokens) each, when it has them
    catalogue: tuple[tuple[int, int], tuple[int, int]] | None


@dataclass(frozen=True, slots=True)
class HealthPage:
    """Everything the page shows."""

    library: str
    generated_at: str
    skills: int
    by_state: Mapping[str, int]
    catalogue: CatalogueCost
    states: tuple[StatePoint, ...]
    heat: HeatMap
    edges: tuple[Edge, ...]
    passes: tuple[PassLine, ...]
    pending: PendingSummary | None
    rows: tuple[tuple[Any, ...], ...]  # one per skill, the values of COLUMNS


@dataclass(frozen=True, slots=True)
class PassRecord:
    """A pass from the audit trail and its run.json (None when unreadable)."""

    entry: Entry
    doc: Mapping[str, Any] | None


def pass_time(p: PassRecord) -> str:
    """When a pass ran: the `now` its run.json names (a pass may be run as of another time
    than its commits carry), else its newest commit's time."""
    now = _dict(p.doc).get("now")
    return now if isinstance(now, str) and now else p.entry.time


def build_page(
    *,
    library: str,
    rows: Sequence[SkillRow],
    passes: Sequence[PassRecord],
    heat: HeatMap,
    catalogue: CatalogueCost,
    now: datetime,
) -> HealthPage:
    """The page of a library whose skills are `rows`, with its `passes` (any order)."""
    ordered = sorted(passes, key=lambda p: (pass_time(p), p.entry.run_id or ""))
    by_state = Counter(r.state for r in rows)
    pending = next((_pending(p) for p in reversed(ordered) if p.entry.status == PENDING), None)
    return HealthPage(
        library=library,
        generated_at=format_time(now),
        skills=len(rows),
        by_state={s: by_state.get(s, 0) for s in STATES},
        catalogue=catalogue,
        states=_state_points(ordered, by_state, now, pending),
        heat=heat,
        edges=_edges(rows, pending),
        passes=tuple(_pass_line(p) for p in reversed(ordered)),
        pending=pending,
        rows=tuple(tuple(getattr(r, key) for key, _ in COLUMNS) for r in rows),
    )


def _state_points(
    ordered: Sequence[PassRecord],
    now_counts: Mapping[str, int],
    now: datetime,
    pending: PendingSummary | None,
) -> tuple[StatePoint, ...]:
    # Each pass says what the library held when it ran (its `before`): a fact whatever became
    # of the pass since. Then today's counts, then what the pending pass would leave.
    points = [
        StatePoint(p.entry.run_id or "?", pass_time(p), _counts(p.doc, "before"))
        for p in ordered
        if p.doc is not None
    ]
    points.append(StatePoint("now", format_time(now), dict(now_counts)))
    if pending is not None:
        points.append(StatePoint(f"if {pending.run_id} merges", "", pending.after, projected=True))
    return tuple(points)


def _counts(doc: Mapping[str, Any] | None, side: str) -> dict[str, int]:
    counts = _dict(_dict(doc).get("counts")).get(side)
    return {str(k): v for k, v in _dict(counts).items() if is_count(v)}


def _edges(rows: Sequence[SkillRow], pending: PendingSummary | None) -> tuple[Edge, ...]:
    merged = [Edge(r.name, r.absorbed_into) for r in rows if r.absorbed_into]
    waiting = [
        Edge(name, umbrella, pending=True)
        for umbrella, folded in (pending.umbrellas if pending else ())
        for name in folded
    ]
    return tuple(sorted(merged + waiting, key=lambda e: (e.umbrella, e.absorbed)))


def _pass_line(p: PassRecord) -> PassLine:
    doc = _dict(p.doc)
    moves = [t.get("to") for t in _list(doc.get("transitions")) if isinstance(t, dict)]
    return PassLine(
        run_id=p.entry.run_id or "?",
        time=pass_time(p),
        status=p.entry.status or "",
        branch=p.entry.branch,
        archived=moves.count("archived"),
        stale=moves.count("stale"),
        umbrellas=len(_list(doc.get("consolidations"))),
    )


def _pending(p: PassRecord) -> PendingSummary:
    doc = _dict(p.doc)
    transitions = [t for t in _list(doc.get("transitions")) if isinstance(t, dict)]
    umbrellas = tuple(
        (
            str(c.get("umbrella")),
            tuple(str(n) for n in [*_list(c.get("absorbed")), *_list(c.get("demoted"))]),
        )
        for c in _list(doc.get("consolidations"))
        if isinstance(c, dict)
    )
    return PendingSummary(
        run_id=p.entry.run_id or "?",
        branch=p.entry.branch or "",
        before=_counts(doc, "before"),
        after=_counts(doc, "after"),
        archived=tuple(str(t.get("skill")) for t in transitions if t.get("to") == "archived"),
        stale=tuple(str(t.get("skill")) for t in transitions if t.get("to") == "stale"),
        umbrellas=umbrellas,
        refused=tuple(
            f"{r.get('what')}: {r.get('reason')}"
            for r in _list(doc.get("refused"))
            if isinstance(r, dict)
        ),
        catalogue=_catalogue(_dict(doc.get("catalogue"))),
    )


def _catalogue(doc: Mapping[str, Any]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    sides = []
    for side in ("before", "after"):
        figures = _dict(doc.get(side))
        skills, tokens = figures.get("skills"), figures.get("tokens")
        if not is_count(skills) or not is_count(tokens):
            return None
        sides.append((skills, tokens))
    return sides[0], sides[1]


def _dict(value: object) -> dict[str, Any]:
    # run.json is read back from a branch a person may have edited: trust no shape.
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []

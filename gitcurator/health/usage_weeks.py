"""Uses per skill and week, from the differences between successive usage records (pure).

A notes commit holds every record as it was then; a record's counters only grow, so what one
commit added to a skill is its new use count less its old one. Those uses happened between the
two commits; they are counted in the week of the newest use the new record names when that
falls in the interval (a flush after a long gap folds months at once), else in the week of the
commit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from gitcurator.errors import UsageError
from gitcurator.json_values import is_count
from gitcurator.telemetry.records import UsageRecord
from gitcurator.telemetry.sources import uses_by_source
from gitcurator.timeutil import parse_time


@dataclass(frozen=True, slots=True)
class UseDelta:
    """`uses` uses of `skill` counted at `at` (canonical UTC), by source where reported."""

    skill: str
    at: str
    uses: int
    by_source: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HeatRow:
    """One skill's uses in each week of the map, its total there and its uses by source."""

    name: str
    counts: tuple[int, ...]
    total: int
    sources: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class HeatMap:
    """Weeks (the Monday each starts on) by skills, most used first; `used` counts every
    skill with a use in those weeks, of which `rows` shows the top ones."""

    weeks: tuple[str, ...]
    rows: tuple[HeatRow, ...]
    used: int

    @property
    def sources(self) -> tuple[str, ...]:
        """Every source some shown row has uses from, sorted."""
        return tuple(sorted({s for row in self.rows for s in row.sources}))


def use_delta(
    skill: str, committed_at: str, before: UsageRecord | None, after: UsageRecord
) -> UseDelta | None:
    """What one notes commit at `committed_at` added to `skill`'s uses (None: nothing, or a
    record whose counts are no numbers)."""
    old_uses = before.use_count if before else 0
    if not is_count(after.use_count) or not is_count(old_uses):
        return None
    uses = after.use_count - old_uses
    if uses <= 0:
        return None
    new_sources = uses_by_source(h.sources for h in after.hosts.values())
    old_sources = uses_by_source(h.sources for h in before.hosts.values()) if before else {}
    by_source = {
        s: n - old_sources.get(s, 0)
        for s, n in new_sources.items()
        if is_count(n) and is_count(old_sources.get(s, 0)) and n > old_sources.get(s, 0)
    }
    last = after.last_used_at
    floor = before.last_used_at if before else None
    in_interval = (
        isinstance(last, str)
        and _is_time(last)
        and last <= committed_at
        and (not isinstance(floor, str) or last > floor)
    )
    return UseDelta(skill, last if in_interval and last else committed_at, uses, by_source)


def _is_time(text: str) -> bool:
    try:
        week_start(text)
    except UsageError:
        return False
    return True


def week_start(at: str) -> str:
    """The Monday (YYYY-MM-DD) of the ISO week holding the canonical UTC time `at`."""
    day = parse_time(at).date()
    return (day - timedelta(days=day.weekday())).isoformat()


def week_starts(now: datetime, weeks: int) -> tuple[str, ...]:
    """The Mondays of the `weeks` weeks ending with the week of `now`, oldest first."""
    monday = now.date() - timedelta(days=now.weekday())
    return tuple((monday - timedelta(weeks=k)).isoformat() for k in range(weeks - 1, -1, -1))


def weekly_heat(
    deltas: Iterable[UseDelta], now: datetime, weeks: int = 12, top: int = 40
) -> HeatMap:
    """The heat map of the `weeks` weeks up to `now`: the `top` most used skills."""
    columns = week_starts(now, weeks)
    index = {week: i for i, week in enumerate(columns)}
    counts: dict[str, list[int]] = {}
    by_source: dict[str, Counter[str]] = {}
    for delta in deltas:
        # A forged cache may name any time and any number: neither may stop the page.
        column = index.get(week_start(delta.at)) if _is_time(delta.at) else None
        if column is None or not is_count(delta.uses):
            continue
        counts.setdefault(delta.skill, [0] * weeks)[column] += delta.uses
        by_source.setdefault(delta.skill, Counter()).update(delta.by_source)
    ranked = sorted(counts, key=lambda name: (-sum(counts[name]), name))
    rows = tuple(
        HeatRow(name, tuple(counts[name]), sum(counts[name]), dict(sorted(by_source[name].items())))
        for name in ranked[:top]
    )
    return HeatMap(columns, rows, len(ranked))

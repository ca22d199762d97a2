"""Uses per week from successive records: the delta, the week it lands in, the top skills."""

from __future__ import annotations

import pytest

from gitcurator.health.usage_weeks import UseDelta, use_delta, week_start, week_starts, weekly_heat
from gitcurator.telemetry.records import HostCounters, UsageRecord
from gitcurator.telemetry.sources import SourceCounters
from gitcurator.timeutil import parse_time

NOW = parse_time("2026-11-30T09:00:00Z")  # a Monday


def _record(uses: int, last: str | None, **by_source: int) -> UsageRecord:
    sources = {s: SourceCounters(use_count=n) for s, n in by_source.items()}
    return UsageRecord("pdf", hosts={"h1": HostCounters(uses, 0, last, None, sources)})


@pytest.mark.parametrize(
    ("at", "monday"),
    [
        ("2026-11-30T09:00:00Z", "2026-11-30"),
        ("2026-12-06T23:59:59Z", "2026-11-30"),
        ("2026-11-29T00:00:00Z", "2026-11-23"),
    ],
)
def test_a_time_falls_in_the_week_starting_on_its_monday(at: str, monday: str) -> None:
    assert week_start(at) == monday


def test_the_weeks_end_with_the_week_of_now() -> None:
    assert week_starts(NOW, 3) == ("2026-11-16", "2026-11-23", "2026-11-30")


def test_a_delta_is_the_new_count_less_the_old_at_the_newest_use_in_between() -> None:
    before = _record(3, "2026-11-10T00:00:00Z", codex=1)
    after = _record(8, "2026-11-20T00:00:00Z", codex=4, mcp=1)
    delta = use_delta("pdf", "2026-11-25T00:00:00Z", before, after)
    assert delta == UseDelta("pdf", "2026-11-20T00:00:00Z", 5, {"codex": 3, "mcp": 1})


def test_a_delta_falls_back_to_the_commit_time_when_the_last_use_is_outside_the_interval() -> None:
    # A use dated after the commit (a skewed clock) is counted at the commit.
    after = _record(2, "2026-12-24T00:00:00Z")
    assert use_delta("pdf", "2026-11-25T00:00:00Z", None, after) == UseDelta(
        "pdf", "2026-11-25T00:00:00Z", 2, {}
    )


def test_no_new_uses_is_no_delta() -> None:
    same = _record(3, "2026-11-10T00:00:00Z")
    assert use_delta("pdf", "2026-11-25T00:00:00Z", same, same) is None
    assert use_delta("pdf", "2026-11-25T00:00:00Z", None, _record(0, None)) is None


def test_the_heat_map_ranks_skills_by_uses_in_its_weeks_and_keeps_the_top() -> None:
    deltas = [
        UseDelta("a", "2026-11-30T10:00:00Z", 2),
        UseDelta("b", "2026-11-24T10:00:00Z", 5, {"mcp": 5}),
        UseDelta("a", "2026-11-17T10:00:00Z", 1),
        UseDelta("c", "2026-11-24T10:00:00Z", 1),
        UseDelta("old", "2026-01-05T10:00:00Z", 50),  # before the window
    ]
    heat = weekly_heat(deltas, NOW, weeks=3, top=2)
    assert heat.weeks == ("2026-11-16", "2026-11-23", "2026-11-30")
    assert [(r.name, r.counts, r.total) for r in heat.rows] == [
        ("b", (0, 5, 0), 5),
        ("a", (1, 0, 2), 3),
    ]
    assert heat.used == 3
    assert heat.sources == ("mcp",)


def test_an_empty_history_is_an_empty_map() -> None:
    heat = weekly_heat([], NOW, weeks=4)
    assert heat.rows == () and heat.used == 0 and len(heat.weeks) == 4


@pytest.mark.parametrize("uses", [float("nan"), float("inf"), 10**400, 2.5])
def test_a_hand_edited_count_that_is_no_number_is_no_delta(uses: object) -> None:
    # JSON lets a note say NaN, Infinity or a 400-digit number: the page once showed "nan"
    # in a cell and its total, and a 400-digit count stopped it with an OverflowError.
    assert use_delta("pdf", "2026-11-25T00:00:00Z", None, _record(uses, None)) is None  # type: ignore[arg-type]
    assert use_delta("pdf", "2026-11-25T00:00:00Z", _record(uses, None), _record(3, None)) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "last", ["2026-11-20Tjunk", "2026-11-2", 20261120, "9999-12-31T23:00:00-05:00"]
)
def test_a_last_use_that_is_no_time_is_counted_at_the_commit(last: object) -> None:
    delta = use_delta("pdf", "2026-11-25T00:00:00Z", None, _record(2, last))  # type: ignore[arg-type]
    assert delta == UseDelta("pdf", "2026-11-25T00:00:00Z", 2, {})
    assert weekly_heat([delta], NOW, weeks=2).rows[0].counts == (2, 0)


def test_a_forged_delta_with_no_time_or_no_count_is_left_out_of_the_map() -> None:
    deltas = [
        UseDelta("a", "junk", 3),
        UseDelta("b", "2026-11-30T10:00:00Z", 10**400),
        UseDelta("c", "2026-11-30T10:00:00Z", -4),
        UseDelta("d", "2026-11-30T10:00:00Z", 1),
    ]
    assert [r.name for r in weekly_heat(deltas, NOW, weeks=2).rows] == ["d"]

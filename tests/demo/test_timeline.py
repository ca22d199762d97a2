"""The demo's timeline: dated commits and seeded usage before the demo's now."""

from __future__ import annotations

from gitcurator.demo import catalogue as sample
from gitcurator.demo.timeline import commits, usage
from gitcurator.timeutil import parse_time

NOW = "2026-11-30T09:00:00Z"


def test_timeline_is_ordered_and_starts_with_the_users_skills() -> None:
    now = parse_time(NOW)
    history = commits(now)
    assert [c.at for c in history] == sorted(c.at for c in history)
    assert history[0].origin == sample.USER
    assert {s.name for c in history for s in c.add} == {s.name for s in sample.SKILLS}
    born = {s.name: c.at for c in history for s in c.add}
    events = usage(now)
    assert events == usage(now)  # seeded: every demo is the same
    assert all(born[e.name] < e.at <= now for e in events)

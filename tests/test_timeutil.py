"""timeutil: the one home of "the newer of two stamps"."""

from __future__ import annotations

from gitcurator.timeutil import later_of, latest


def test_later_of_is_latest_of_two() -> None:
    stamps = [None, "", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"]
    for a in stamps:
        for b in stamps:
            assert later_of(a, b) == latest(a, b), (a, b)

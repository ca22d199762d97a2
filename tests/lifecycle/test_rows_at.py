"""inventory.rows_at: a kept row's state judged again at another moment is exactly what
state_of says then, at the boundaries too (integer microseconds, as timedelta divides)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.inventory import SkillRow, idle_anchor, row_values, rows_at
from gitcurator.lifecycle.rules import state_of
from gitcurator.timeutil import parse_time


def _row(
    *, state: str = "active", curated: bool = True, pinned: bool = False, protected: bool = False,
    activity: str | None = "2026-01-01T00:00:00Z", created: str | None = "2025-06-01T12:30:00Z",
) -> SkillRow:  # fmt: skip
    return SkillRow(
        name="s", path="s", state=state, origin="agent" if curated else "user", pinned=pinned,
        curated=curated, protected=protected, use_count=1, view_count=0, patch_count=0,
        last_used_at=activity, last_viewed_at=None, last_patched_at=None,
        last_activity_at=activity, created_at=created, archived_at=None, absorbed_into=None,
    )  # fmt: skip


ROWS = [
    _row(),
    _row(state="stale"),
    _row(activity=None),
    _row(activity=None, created=None),
    _row(curated=False),
    _row(pinned=True),
    _row(protected=True),
    _row(state="archived"),
    _row(activity="2026-01-31T00:00:01Z"),
]
BASE = parse_time("2026-01-31T00:00:00Z")
MOMENTS = [
    BASE,
    BASE + timedelta(seconds=1),
    BASE + timedelta(seconds=2),
    BASE - timedelta(days=400),
    BASE + timedelta(days=3000, microseconds=7),
    parse_time("2026-03-02T00:00:01Z"),
]


@pytest.mark.parametrize("after", [30, 30.0000115, 0.5, 0, 10_000])
@pytest.mark.parametrize("now", MOMENTS, ids=str)
def test_rows_at_says_what_state_of_says(after: float, now: datetime) -> None:
    policy = CuratorPolicy(stale_after_days=after)
    judged = rows_at([row_values(r) for r in ROWS], [idle_anchor(r) for r in ROWS], policy, now)
    for row, again in zip(ROWS, judged, strict=True):
        expected = state_of(
            archived=row.state == "archived",
            managed=row.curated and not row.pinned and not row.protected,
            last_activity_at=row.last_activity_at,
            created_at=row.created_at,
            policy=policy,
            now=now,
        )
        assert again.state == expected, row
        assert row_values(again)[3:] == row_values(row)[3:]  # nothing else moves

"""`--now` at the edge of the years a timestamp may name: a usage error, never an internal one."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import run_cli


@pytest.mark.parametrize("now", ["9999-12-31T23:00:00-05:00", "0001-01-01T00:30:00+01:00"])
def test_a_now_that_leaves_the_years_in_utc_is_a_usage_error(repo: Path, now: str) -> None:
    # Shifting to UTC once raised OverflowError: exit 3 with a crash log, for a typo.
    done = run_cli("status", "-C", str(repo), "--now", now)
    assert done.code == 2, done
    assert "outside the years 1970-9999" in done.err

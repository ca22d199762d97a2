"""`gitcurator maybe-run`: the decision as text and as a document, the pass's own inside."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcurator.commands.maybe_run import maybe_run
from gitcurator.errors import UsageError

T0, T1 = "2030-01-01T00:00:00Z", "2030-01-08T00:00:00Z"


def test_the_first_call_starts_the_clock(repo: Path) -> None:
    first = maybe_run(repo, idle_for=None, now=T0, as_json=False)
    assert first.text == (
        "not running a pass: first call: the clock starts now; the first pass is due in 168 h\n"
        "next pass due: 2030-01-08T00:00:00Z\n"
    )
    assert first.doc == {
        "ran": False,
        "reason": "first call: the clock starts now; the first pass is due in 168 h",
        "next_due": T1,
        "first_call": True,
    }


def test_a_due_pass_runs_and_its_document_is_kept_whole(repo: Path) -> None:
    maybe_run(repo, idle_for=None, now=T0, as_json=True)
    ran = maybe_run(repo, idle_for=None, now=T1, as_json=True)
    assert ran.code == 0
    assert isinstance(ran.doc, dict) and ran.doc["ran"] is True
    assert ran.doc["run_id"] == "20300108-000000" == ran.doc["pass"]["run_id"]


def test_nan_idle_time_is_refused(repo: Path) -> None:
    with pytest.raises(UsageError, match="--idle-for"):
        maybe_run(repo, idle_for=float("nan"), now=None, as_json=False)

"""`gitcurator flush`: what it folded, in one notes commit, or that there was nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gitcurator.commands.flush import flush
from gitcurator.commands.record import record_events


def test_flush_says_what_it_folded_then_that_nothing_is_left(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record_events(repo, "use", ["pdf-extract", "docker-build"], None)
    record_events(repo, "view", ["pdf-extract"], None)
    folded = flush(repo)
    assert re.fullmatch(
        r"folded 3 events into 2 skill records \(notes commit [0-9a-f]{12}\)", folded.text
    )
    assert (folded.code, folded.notes) == (0, ())
    assert flush(repo).text == "nothing to flush"
    assert capsys.readouterr() == ("", "")

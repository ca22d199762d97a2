"""`gitcurator track`: the origin of skills set, each only once."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.passes import show

from gitcurator.commands.track import track
from gitcurator.errors import CuratorError


def test_track_names_what_changed_and_what_was_already_so(repo: Path) -> None:
    assert track(repo, ["pdf-extract"], "agent").text == "origin agent: pdf-extract"
    both = track(repo, ["docker-build", "pdf-extract"], "agent")
    assert both.text == "origin agent: docker-build\nalready so: pdf-extract"
    assert show(repo, "docker-build")["origin"] == "agent"


def test_an_unknown_name_changes_nothing(repo: Path) -> None:
    with pytest.raises(CuratorError, match="no skill named nope"):
        track(repo, ["pdf-extract", "nope"], "hub")
    assert show(repo, "pdf-extract")["origin"] == "user"

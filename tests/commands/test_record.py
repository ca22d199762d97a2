"""`gitcurator record`: the command's Result, and the error of a name that is no skill."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.repos import run_cli

from gitcurator.commands.record import record, record_events
from gitcurator.errors import CuratorError, NotARepository
from gitcurator.output import Result


def test_recording_shows_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert record(repo, "use", ["pdf-extract"], "2026-01-02T00:00:00Z") == Result()
    assert capsys.readouterr() == ("", "")


def test_an_unknown_name_is_an_error_naming_it(repo: Path) -> None:
    with pytest.raises(CuratorError, match="no skill named nope in this repository"):
        record_events(repo, "use", ["pdf-extract", "nope"], None)


def test_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(NotARepository, match=f"run `gitcurator init {tmp_path}` first"):
        record_events(tmp_path, "use", ["x"], None)


def test_the_cli_and_the_api_say_who_recorded(repo: Path) -> None:
    """Uses by source: `record use` counts as cli, gitcurator.record_use as api."""
    import gitcurator

    assert run_cli("record", "use", "pdf-extract", "-C", str(repo)).code == 0
    gitcurator.record_use("pdf-extract", "helm-deploy", repo=repo)
    assert run_cli("flush", "-C", str(repo)).code == 0
    shown = json.loads(run_cli("show", "pdf-extract", "--json", "-C", str(repo)).out)
    assert shown["use_count"] == 2
    assert shown["sources"] == {"api": 1, "cli": 1}
    other = json.loads(run_cli("show", "helm-deploy", "--json", "-C", str(repo)).out)
    assert other["sources"] == {"api": 1}


def test_the_fast_path_imports_none_of_the_slow_modules(repo: Path) -> None:
    """A warm `record use` in a real process loads neither pathlib, re, json nor enum: each
    costs the hot path milliseconds (pathlib alone loads re, fnmatch, urllib.parse)."""
    import os
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    command = [sys.executable, "-X", "importtime", "-m", "gitcurator", "record", "use"]
    subprocess.run([*command, "pdf-extract"], cwd=repo, env=env, check=True)  # warm the cache
    done = subprocess.run(
        [*command, "pdf-extract"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "gitcurator.telemetry.recording" in loaded
    slow = {"pathlib", "re", "json", "enum", "signal", "dulwich", "click", "yaml"}
    assert not loaded & slow, sorted(loaded & slow)

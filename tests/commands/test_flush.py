"""`gitcurator flush`: what it folded, in one notes commit, or that there was nothing."""

from __future__ import annotations

import json
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


def test_flush_drops_journal_lines_naming_unknown_skills_or_future_times(repo: Path) -> None:
    from datetime import timedelta

    from support.repos import cli_json, run_cli

    from gitcurator.telemetry import events, journal
    from gitcurator.timeutil import format_time, utc_now

    now = utc_now()
    soon = format_time(now + timedelta(hours=2))  # another machine's clock: kept
    later = format_time(now + timedelta(days=400))
    past = format_time(now - timedelta(days=1))
    state = repo / ".git" / "gitcurator"
    for names, at in [
        (["pdf-extract"], past),
        (["ghost"], past),  # a script's typo: never a skill
        (["pdf-extract", "ghost", "phantom"], past),  # the known name of the line is kept
        (["docker-build"], later),
        (["helm-deploy"], soon),
    ]:
        journal.append(state, events.event_line("use", names, at, "host-a", "cli", None))
    rows = {r["name"]: r for r in cli_json("list", "-C", str(repo))}
    assert rows["docker-build"]["use_count"] == 0  # not shown before the flush either
    assert rows["pdf-extract"]["use_count"] == 2
    flushed = run_cli("flush", "-C", str(repo), "--json")
    assert flushed.code == 0, flushed
    doc = json.loads(flushed.out)
    assert doc["events"] == 3 and doc["skills"] == 2
    assert doc["dropped"] == {"unknown_skills": {"ghost": 2, "phantom": 1}, "future": 1}
    assert (
        "gitcurator: warning: dropped 3 journal events naming 2 unknown skills (ghost, "
        "phantom); `record` refuses such names" in flushed.err
    )
    assert "dropped 1 journal event dated in the future (after " in flushed.err
    rows = {r["name"]: r for r in cli_json("list", "-C", str(repo))}
    assert (rows["pdf-extract"]["use_count"], rows["helm-deploy"]["use_count"]) == (2, 1)
    assert rows["docker-build"]["use_count"] == 0
    assert rows["helm-deploy"]["last_used_at"] == soon
    text = run_cli("flush", "-C", str(repo))
    assert text.out == "nothing to flush\n"
    names = run_cli("list", "--json", "-C", str(repo))
    assert "ghost" not in names.out


def test_flush_text_counts_what_it_dropped(repo: Path) -> None:
    from gitcurator.telemetry import events, journal

    state = repo / ".git" / "gitcurator"
    for name in ("pdf-extract", "ghost"):
        line = events.event_line("use", [name], "2026-01-02T00:00:00Z", "host-a", None, None)
        journal.append(state, line)
    result = flush(repo)
    assert result.text.startswith("folded 1 event into 1 skill record (notes commit ")
    assert result.text.endswith("; dropped 1 event (see the warnings)")
    assert result.doc == {
        "events": 1,
        "skills": 1,
        "commit": result.doc["commit"],  # type: ignore[index]
        "dropped": {"unknown_skills": {"ghost": 1}, "future": 0},
    }


@pytest.mark.parametrize("as_json", [False, True])
def test_a_plain_flush_skips_click_and_says_what_click_would(repo: Path, as_json: bool) -> None:
    """entry.py runs `gitcurator flush [--json]` without click: the same output and code, a
    warning included, as the CLI gives (here run in this process through click)."""
    from support.repos import run_cli, run_process

    args = ["flush", "--json"] if as_json else ["flush"]
    journal = repo / ".git" / "gitcurator" / "journal.jsonl"
    outputs = []
    for run in range(2):
        record_events(repo, "use", ["pdf-extract"], "2026-01-02T00:00:00Z")
        with journal.open("a") as file:
            file.write('{"v":1,"k":"use","t":"2026-01-02T00:00:00Z","h":"h1","n":["nope"]}\n')
        if run == 0:
            done = run_process(*args, cwd=repo)
            outputs.append((done.returncode, done.stdout, done.stderr))
        else:
            result = run_cli(*args, cwd=repo)
            outputs.append((result.code, result.out, result.err))
    commit = re.compile(r"[0-9a-f]{12,40}")
    fast, slow = ((code, commit.sub("C", out), err) for code, out, err in outputs)
    assert fast == slow
    assert fast[0] == 0 and "unknown skill (nope)" in fast[2]


def test_an_interrupted_plain_flush_says_what_the_cli_says(repo: Path) -> None:
    # click writes an empty line before the interrupt's message; the fast path does too.
    import os
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    script = (
        "import sys\n"
        "import gitcurator.commands.flush as command\n"
        "def interrupted(*args, **kwargs):\n"
        "    raise KeyboardInterrupt\n"
        "command.flush = interrupted\n"
        "sys.argv = ['gitcurator', *sys.argv[1:]]\n"
        "from gitcurator.entry import main\n"
        "main()\n"
    )
    seen = []
    for args in (["flush"], ["flush", "-C", "."]):  # the fast path, then click's
        done = subprocess.run(
            [sys.executable, "-c", script, *args], cwd=repo, env=env, capture_output=True, text=True
        )
        seen.append((done.returncode, done.stdout, done.stderr))
    assert seen[0] == seen[1]
    assert seen[0][0] == 130 and seen[0][2] == "\ngitcurator: interrupted\n"

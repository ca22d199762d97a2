"""`maybe-run`, `pause`, `resume` end to end: the schedule decides, a pass runs, it is recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.passes import curator_branches
from support.repos import run_cli

from gitcurator.curation.schedule_state import state_doc
from gitcurator.errors import CuratorError
from gitcurator.lifecycle.schedule import ScheduleState
from gitcurator.statefiles import SCHEDULE_FILE

GOOD = state_doc(ScheduleState())  # the defaults, as the file holds them

T0 = "2030-01-01T00:00:00Z"  # years after the skills were committed: an agent skill archives


T1 = "2030-01-08T00:00:00Z"  # T0 + 168 h


def _schedule(repo: Path) -> dict[str, object]:
    doc: dict[str, object] = json.loads((repo / ".git/gitcurator" / SCHEDULE_FILE).read_text())
    return doc


def test_first_call_starts_the_clock_and_runs_nothing(agent_repo: Path) -> None:
    result = run_cli("maybe-run", "--now", T0, "-C", str(agent_repo))
    assert result.code == 0, result
    assert "not running a pass: first call" in result.out
    assert "next pass due: 2030-01-08T00:00:00Z" in result.out
    assert _schedule(agent_repo) == {**GOOD, "last_pass_at": T0}
    assert curator_branches(agent_repo) == []


def test_runs_when_due_and_records_the_pass(agent_repo: Path) -> None:
    assert run_cli("maybe-run", "--now", T0, "-C", str(agent_repo)).code == 0
    early = run_cli("maybe-run", "--now", "2030-01-07T23:59:59Z", "--json", "-C", str(agent_repo))
    assert early.code == 0
    assert json.loads(early.out) == {
        "ran": False,
        "reason": f"not due: last pass {T0}, every 168 h",
        "next_due": T1,
        "first_call": False,
    }
    result = run_cli(
        "maybe-run", "--now", T1, "--idle-for", "7200", "--json", "-C", str(agent_repo)
    )
    assert result.code == 0, result
    doc = json.loads(result.out)
    assert doc["ran"] is True and doc["next_due"] == "2030-01-15T00:00:00Z"
    assert doc["run_id"] == "20300108-000000"
    assert doc["pass"]["archived"] == ["pdf-extract"]
    assert curator_branches(agent_repo) == ["curator/20300108-000000"]
    assert _schedule(agent_repo)["last_pass_at"] == T1
    again = run_cli("maybe-run", "--now", T1, "-C", str(agent_repo))
    assert "not running a pass: not due" in again.out
    assert curator_branches(agent_repo) == ["curator/20300108-000000"]


def test_text_output_of_a_pass(agent_repo: Path) -> None:
    assert run_cli("maybe-run", "--now", T0, "-C", str(agent_repo)).code == 0
    result = run_cli("maybe-run", "--now", T1, "-C", str(agent_repo))
    assert result.code == 0, result
    assert result.out.startswith(f"running a curator pass: due: last pass {T0}, every 168 h\n")
    assert "pdf-extract" in result.out
    assert result.out.rstrip().endswith("next pass due: 2030-01-15T00:00:00Z")


def test_not_idle_long_enough(agent_repo: Path) -> None:
    assert run_cli("maybe-run", "--now", T0, "-C", str(agent_repo)).code == 0
    result = run_cli("maybe-run", "--now", T1, "--idle-for", "60", "-C", str(agent_repo))
    assert result.code == 0
    assert "idle only" in result.out and "min_idle_hours: 2" in result.out
    assert curator_branches(agent_repo) == []
    assert _schedule(agent_repo)["last_pass_at"] == T0


@pytest.mark.parametrize("idle", ["-5", "nan", "NaN", "soon"])
def test_a_bad_idle_time_is_a_usage_error(repo: Path, idle: str) -> None:
    result = run_cli("maybe-run", "--idle-for", idle, "-C", str(repo))
    assert result.code == 2
    assert "--idle-for" in result.err


def test_bad_now_is_a_usage_error(repo: Path) -> None:
    result = run_cli("maybe-run", "--now", "tomorrow", "-C", str(repo))
    assert result.code == 2 and "ISO-8601" in result.err


def test_disabled_in_the_config(agent_repo: Path) -> None:
    (agent_repo / ".gitcurator.yaml").write_text("curator:\n  enabled: false\n")
    for now in (T0, T1, "2031-01-01T00:00:00Z"):
        result = run_cli("maybe-run", "--now", now, "-C", str(agent_repo))
        assert result.code == 0
        assert "automatic passes are off (curator.enabled: false)" in result.out
    assert not (agent_repo / ".git/gitcurator" / SCHEDULE_FILE).exists()
    assert curator_branches(agent_repo) == []


def test_pause_and_resume(agent_repo: Path) -> None:
    assert run_cli("maybe-run", "--now", T0, "-C", str(agent_repo)).code == 0
    first = run_cli("pause", "-C", str(agent_repo))
    assert first.code == 0 and "paused automatic passes" in first.out
    paused_at = _schedule(agent_repo)["paused_at"]
    assert _schedule(agent_repo)["paused"] is True and isinstance(paused_at, str)
    second = run_cli("pause", "-C", str(agent_repo))
    assert second.code == 0
    assert f"already paused since {paused_at}; nothing changed" in second.out
    assert _schedule(agent_repo)["paused_at"] == paused_at

    blocked = run_cli("maybe-run", "--now", T1, "--json", "-C", str(agent_repo))
    assert json.loads(blocked.out)["ran"] is False
    assert "paused since" in json.loads(blocked.out)["reason"]
    assert curator_branches(agent_repo) == []

    resumed = run_cli("resume", "-C", str(agent_repo))
    assert resumed.code == 0
    assert "resumed automatic passes" in resumed.out and f"next pass due: {T1}" in resumed.out
    assert _schedule(agent_repo) == {**GOOD, "last_pass_at": T0}
    assert "not paused; nothing changed" in run_cli("resume", "-C", str(agent_repo)).out
    assert run_cli("maybe-run", "--now", T1, "-C", str(agent_repo)).code == 0
    assert curator_branches(agent_repo) == ["curator/20300108-000000"]


def test_resume_before_any_pass_says_the_clock_is_not_started(repo: Path) -> None:
    assert run_cli("pause", "-C", str(repo)).code == 0
    result = run_cli("resume", "-C", str(repo))
    assert "the next `gitcurator maybe-run` starts the clock" in result.out


def test_pause_outside_a_repository(tmp_path: Path) -> None:
    result = run_cli("pause", "-C", str(tmp_path))
    assert result.code == 1
    assert "gitcurator init" in result.err


def test_damaged_schedule_restarts_the_clock(agent_repo: Path) -> None:
    path = agent_repo / ".git/gitcurator" / SCHEDULE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"version": 1, "last_pass_at": "soon"')
    result = run_cli("maybe-run", "--now", T1, "-C", str(agent_repo))
    assert result.code == 0
    assert str(path) in result.err and "damaged" in result.err
    assert "first call" in result.out
    assert _schedule(agent_repo) == {**GOOD, "last_pass_at": T1}
    assert curator_branches(agent_repo) == []


def test_a_failed_pass_leaves_the_schedule_and_exits_1(
    agent_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gitcurator.commands.run
    from gitcurator.output import Result

    assert run_cli("maybe-run", "--now", T0, "-C", str(agent_repo)).code == 0
    monkeypatch.setattr(gitcurator.commands.run, "run", lambda start, **kw: Result(code=1))
    result = run_cli("maybe-run", "--now", T1, "--json", "-C", str(agent_repo))
    assert result.code == 1
    doc = json.loads(result.out)
    assert doc["ran"] is True and "the pass failed" in doc["reason"]
    assert _schedule(agent_repo)["last_pass_at"] == T0

    def broken(start: Path, **kw: object) -> Result:
        raise CuratorError("the notes ref is damaged")

    monkeypatch.setattr(gitcurator.commands.run, "run", broken)
    result = run_cli("maybe-run", "--now", T1, "-C", str(agent_repo))
    assert result.code == 1 and "the notes ref is damaged" in result.err
    assert _schedule(agent_repo)["last_pass_at"] == T0


def test_a_pause_during_the_pass_is_kept(agent_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gitcurator.commands.run
    from gitcurator.output import Result

    real = gitcurator.commands.run.run

    def pausing(start: Path, **kw: object) -> Result:
        assert run_cli("pause", "-C", str(start)).code == 0  # as if from another terminal
        return real(start, **kw)

    assert run_cli("maybe-run", "--now", T0, "-C", str(agent_repo)).code == 0
    monkeypatch.setattr(gitcurator.commands.run, "run", pausing)
    assert run_cli("maybe-run", "--now", T1, "-C", str(agent_repo)).code == 0
    state = _schedule(agent_repo)
    assert state["last_pass_at"] == T1 and state["paused"] is True


def test_a_pass_with_nothing_to_do_still_counts(repo: Path) -> None:
    assert run_cli("maybe-run", "--now", T0, "-C", str(repo)).code == 0
    result = run_cli("maybe-run", "--now", T1, "--json", "-C", str(repo))
    assert result.code == 0, result
    doc = json.loads(result.out)
    assert doc["ran"] is True and doc["run_id"] == "20300108-000000"
    assert doc["pass"]["branch"] is None  # only user skills: nothing for the curator
    assert curator_branches(repo) == []
    assert _schedule(repo)["last_pass_at"] == T1

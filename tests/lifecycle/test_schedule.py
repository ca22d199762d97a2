"""maybe-run, pause, resume: the scheduling rules (table-driven) and the commands."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from support.repos import git, run_cli

from gitcurator.config import CuratorPolicy
from gitcurator.errors import CuratorError
from gitcurator.lifecycle.schedule import (
    SCHEDULE_FILE,
    ScheduleState,
    due,
    parse_state,
    read_state,
    schedule_summary,
    state_doc,
    update_state,
)
from gitcurator.timeutil import format_time, parse_time

NOW = parse_time("2026-11-30T12:00:00Z")
POLICY = CuratorPolicy()  # 168 h interval, 2 h idle


def _ago(hours: float) -> str:
    return format_time(NOW - timedelta(hours=hours))


def _after(hours: float) -> str:
    return format_time(NOW + timedelta(hours=hours))


# -- the rules ----------------------------------------------------------------------------

DUE_CASES = [
    # (case, state, policy, idle seconds, run, first_call, next_due, words in the reason)
    (
        "disabled",
        ScheduleState(_ago(500)),
        CuratorPolicy(enabled=False),
        None,
        False,
        False,
        None,
        "curator.enabled: false",
    ),
    (
        "disabled before the first call starts no clock",
        ScheduleState(),
        CuratorPolicy(enabled=False),
        None,
        False,
        False,
        None,
        "off",
    ),
    (
        "paused",
        ScheduleState(_ago(500), paused=True, paused_at=_ago(10)),
        POLICY,
        None,
        False,
        False,
        None,
        f"paused since {_ago(10)}",
    ),
    (
        "paused before the first call starts no clock",
        ScheduleState(paused=True),
        POLICY,
        None,
        False,
        False,
        None,
        "resume",
    ),
    (
        "first call starts the clock",
        ScheduleState(),
        POLICY,
        None,
        False,
        True,
        _after(168),
        "first",
    ),
    (
        "first call ignores idle time",
        ScheduleState(),
        POLICY,
        99999.0,
        False,
        True,
        _after(168),
        "clock starts",
    ),
    (
        "interval not over",
        ScheduleState(_ago(100)),
        POLICY,
        None,
        False,
        False,
        _after(68),
        "not due",
    ),
    (
        "one second short of the interval",
        ScheduleState(format_time(NOW - timedelta(hours=168) + timedelta(seconds=1))),
        POLICY,
        None,
        False,
        False,
        format_time(NOW + timedelta(seconds=1)),
        "not due",
    ),
    (
        "interval exactly over",
        ScheduleState(_ago(168)),
        POLICY,
        None,
        True,
        False,
        _after(168),
        "due",
    ),
    ("long overdue", ScheduleState(_ago(5000)), POLICY, None, True, False, _after(168), "due"),
    (
        "last pass in the future (clock went back)",
        ScheduleState(_after(5)),
        POLICY,
        None,
        False,
        False,
        _after(173),
        "not due",
    ),
    (
        "due but not idle long enough",
        ScheduleState(_ago(200)),
        POLICY,
        3600.0,
        False,
        False,
        _ago(32),
        "min_idle_hours: 2",
    ),
    (
        "due and idle exactly enough",
        ScheduleState(_ago(200)),
        POLICY,
        7200.0,
        True,
        False,
        _after(168),
        "idle 2 h",
    ),
    (
        "due and idle for days",
        ScheduleState(_ago(200)),
        POLICY,
        400000.0,
        True,
        False,
        _after(168),
        "due",
    ),
    (
        "no idle requirement",
        ScheduleState(_ago(200)),
        CuratorPolicy(min_idle_hours=0),
        0.0,
        True,
        False,
        _after(168),
        "due",
    ),
    (
        "a short interval",
        ScheduleState(_ago(1)),
        CuratorPolicy(interval_hours=0.5),
        None,
        True,
        False,
        _after(0.5),
        "every 0.5 h",
    ),
    (
        "a long interval",
        ScheduleState(_ago(200)),
        CuratorPolicy(interval_hours=720),
        None,
        False,
        False,
        _after(520),
        "every 720 h",
    ),
]


@pytest.mark.parametrize(
    ("state", "policy", "idle", "run", "first_call", "next_due", "words"),
    [case[1:] for case in DUE_CASES],
    ids=[case[0] for case in DUE_CASES],
)
def test_due(
    state: ScheduleState,
    policy: CuratorPolicy,
    idle: float | None,
    run: bool,
    first_call: bool,
    next_due: str | None,
    words: str,
) -> None:
    decision = due(state, policy, NOW, idle)
    assert (decision.run, decision.first_call, decision.next_due) == (run, first_call, next_due)
    assert words in decision.reason


def test_due_at_the_end_of_time_is_never_due_again() -> None:
    end = datetime(9999, 12, 31, 23, 0, tzinfo=NOW.tzinfo)
    decision = due(ScheduleState(), POLICY, end, None)
    assert decision.first_call and decision.next_due == "9999-12-31T23:59:59Z"


# -- the file format ----------------------------------------------------------------------

GOOD = {"version": 1, "last_pass_at": None, "paused": False, "paused_at": None}


@pytest.mark.parametrize(
    ("doc", "state"),
    [
        (GOOD, ScheduleState()),
        ({**GOOD, "last_pass_at": "2026-11-30T08:00:00Z"}, ScheduleState("2026-11-30T08:00:00Z")),
        (
            {**GOOD, "paused": True, "paused_at": "2026-11-30T08:00:00Z"},
            ScheduleState(None, True, "2026-11-30T08:00:00Z"),
        ),
    ],
)
def test_parse_state_round_trips(doc: dict[str, object], state: ScheduleState) -> None:
    assert parse_state(doc) == state
    assert state_doc(state) == doc


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        ([], "not a JSON object"),
        ({}, "keys must be"),
        ({**GOOD, "extra": 1}, "keys must be"),
        ({k: v for k, v in GOOD.items() if k != "paused_at"}, "keys must be"),
        ({**GOOD, "version": 2}, "unknown version 2"),
        ({**GOOD, "paused": "yes"}, "paused must be true or false"),
        ({**GOOD, "paused": 1}, "paused must be true or false"),
        ({**GOOD, "last_pass_at": "yesterday"}, "last_pass_at must be null or a time"),
        ({**GOOD, "last_pass_at": "2026-11-30 08:00:00"}, "last_pass_at must be null or a time"),
        ({**GOOD, "last_pass_at": "2026-13-45T08:00:00Z"}, "last_pass_at must be null or a time"),
        ({**GOOD, "last_pass_at": "0000-01-01T00:00:00Z"}, "last_pass_at must be null or a time"),
        ({**GOOD, "paused_at": 12}, "paused_at must be null or a time"),
    ],
)
def test_parse_state_rejects(doc: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_state(doc)


def test_missing_file_reads_as_defaults_quietly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert read_state(tmp_path) == ScheduleState()
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "",
        "\x00\x01",
        json.dumps({**GOOD, "paused": "no"}),
        json.dumps([1, 2]),
    ],
)
def test_damaged_file_resets_with_a_warning_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (tmp_path / SCHEDULE_FILE).write_text(text)
    assert read_state(tmp_path) == ScheduleState()
    err = capsys.readouterr().err
    assert str(tmp_path / SCHEDULE_FILE) in err
    assert "reset" in err and "gitcurator pause" in err


def test_update_state_writes_the_documented_shape(tmp_path: Path) -> None:
    before, after = update_state(tmp_path, lambda s: ScheduleState("2026-11-30T08:00:00Z"))
    assert before == ScheduleState()
    assert after == ScheduleState("2026-11-30T08:00:00Z")
    doc = json.loads((tmp_path / SCHEDULE_FILE).read_text())
    assert doc == {**GOOD, "last_pass_at": "2026-11-30T08:00:00Z"}
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_schedule_summary(tmp_path: Path) -> None:
    assert schedule_summary(tmp_path, POLICY, NOW) == {
        "last_pass_at": None,
        "paused": False,
        "next_due": None,
        "due": False,
    }
    update_state(tmp_path, lambda s: ScheduleState(_ago(200)))
    assert schedule_summary(tmp_path, POLICY, NOW) == {
        "last_pass_at": _ago(200),
        "paused": False,
        "next_due": _ago(32),
        "due": True,
    }
    update_state(tmp_path, lambda s: ScheduleState(s.last_pass_at, True, _ago(1)))
    summary = schedule_summary(tmp_path, POLICY, NOW)
    assert summary["paused"] is True and summary["next_due"] is None and not summary["due"]


# -- the commands -------------------------------------------------------------------------

T0 = "2030-01-01T00:00:00Z"  # years after the skills were committed: an agent skill archives
T1 = "2030-01-08T00:00:00Z"  # T0 + 168 h


def _schedule(repo: Path) -> dict[str, object]:
    doc: dict[str, object] = json.loads((repo / ".git/gitcurator" / SCHEDULE_FILE).read_text())
    return doc


def _branches(repo: Path) -> list[str]:
    out = git("for-each-ref", "--format=%(refname:short)", "refs/heads/curator/", cwd=repo)
    return out.stdout.split()


@pytest.fixture
def agent_repo(repo: Path) -> Path:
    """The `repo` fixture with pdf-extract handed to the curator (so a pass has work)."""
    assert run_cli("track", "pdf-extract", "--origin", "agent", "-C", str(repo)).code == 0
    return repo


def test_first_call_starts_the_clock_and_runs_nothing(agent_repo: Path) -> None:
    result = run_cli("maybe-run", "--now", T0, "-C", str(agent_repo))
    assert result.code == 0, result
    assert "not running a pass: first call" in result.out
    assert "next pass due: 2030-01-08T00:00:00Z" in result.out
    assert _schedule(agent_repo) == {**GOOD, "last_pass_at": T0}
    assert _branches(agent_repo) == []


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
    assert _branches(agent_repo) == ["curator/20300108-000000"]
    assert _schedule(agent_repo)["last_pass_at"] == T1
    again = run_cli("maybe-run", "--now", T1, "-C", str(agent_repo))
    assert "not running a pass: not due" in again.out
    assert _branches(agent_repo) == ["curator/20300108-000000"]


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
    assert _branches(agent_repo) == []
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
    assert _branches(agent_repo) == []


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
    assert _branches(agent_repo) == []

    resumed = run_cli("resume", "-C", str(agent_repo))
    assert resumed.code == 0
    assert "resumed automatic passes" in resumed.out and f"next pass due: {T1}" in resumed.out
    assert _schedule(agent_repo) == {**GOOD, "last_pass_at": T0}
    assert "not paused; nothing changed" in run_cli("resume", "-C", str(agent_repo)).out
    assert run_cli("maybe-run", "--now", T1, "-C", str(agent_repo)).code == 0
    assert _branches(agent_repo) == ["curator/20300108-000000"]


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
    assert _branches(agent_repo) == []


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
    assert _branches(repo) == []
    assert _schedule(repo)["last_pass_at"] == T1

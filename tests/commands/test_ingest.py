"""`gitcurator ingest`: backfill from real-format logs; every event counts once, whatever path
(hook, backfill, a re-run, a flush and a sync in between) brought it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from support.agents import (
    UNKNOWN_LINES,
    hermes_record,
    jsonl,
    our_command,
    rollout_meta,
    rollout_shell,
    rollout_user,
    run_hook,
    skill_payload,
    transcript_skill_line,
    transcript_write_result,
    write_usage,
)
from support.remotes import clone
from support.repos import git, run_cli, write_skill

from gitcurator.commands.hook import run as hook
from gitcurator.library import open_repo
from gitcurator.telemetry import ledger
from gitcurator.telemetry.sources import uses_by_source

T1, T2, T3 = "2026-09-01T10:00:00.123Z", "2026-09-02T10:00:00.000Z", "2026-09-03T10:00:00Z"


def _uses(repo: Path) -> dict[str, int]:
    with open_repo(repo) as r:
        records = ledger.load(r.store).records
    return {n: rec.use_count for n, rec in sorted(records.items()) if rec.use_count}


@pytest.fixture
def claude() -> Path:
    """A connected Claude Code library with a transcript folder."""
    skills = Path.home() / ".claude" / "skills"
    for name in ("pdf-extract", "docker-build"):
        write_skill(skills, name)
    assert run_cli("connect", "claude-code").code == 0
    return skills


def _transcript(lines: list[dict[str, object]], name: str = "session-1") -> Path:
    path = Path.home() / ".claude" / "projects" / "-work-repo" / f"{name}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(jsonl(lines))
    return path


def test_hook_then_backfill_of_the_same_session_counts_once(claude: Path, tmp_path: Path) -> None:
    command = our_command(Path.home() / ".claude" / "settings.json")
    run_hook(command, json.dumps(skill_payload("pdf-extract", "toolu_A", tmp_path)))
    _transcript(
        [
            transcript_skill_line("pdf-extract", "toolu_A", T1),  # the one the hook saw
            transcript_skill_line("pdf-extract", "toolu_B", T2),  # one it missed
            transcript_skill_line("docker-build", "toolu_C", T2),
        ]
    )
    done = run_cli("ingest", "claude-code", "-C", str(claude))
    assert done.code == 0, done
    assert _uses(claude) == {"docker-build": 1, "pdf-extract": 2}


def test_ingest_twice_and_an_appended_session_count_each_event_once(claude: Path) -> None:
    path = _transcript([transcript_skill_line("pdf-extract", "toolu_1", T1)])
    assert run_cli("ingest", "claude-code", "-C", str(claude)).code == 0
    assert run_cli("ingest", "claude-code", "-C", str(claude)).code == 0
    with path.open("a") as f:
        f.write(jsonl([transcript_skill_line("pdf-extract", "toolu_2", T2)]))
    assert run_cli("ingest", "claude-code", "-C", str(claude)).code == 0
    # a lost offset file re-reads everything: the ids still count once
    (claude / ".git" / "gitcurator" / "ingest" / "claude-code.json").unlink()
    assert run_cli("ingest", "claude-code", "-C", str(claude)).code == 0
    assert _uses(claude) == {"pdf-extract": 2}


def test_torn_last_lines_and_unknown_line_types_are_tolerated(claude: Path) -> None:
    whole = jsonl([*UNKNOWN_LINES, transcript_skill_line("pdf-extract", "toolu_1", T1)])
    torn = json.dumps(transcript_skill_line("docker-build", "toolu_2", T2))
    path = _transcript([])
    path.write_text(whole + "{not json}\n" + torn[:40])
    done = run_cli("ingest", "claude-code", "-C", str(claude))
    assert done.code == 0, done
    assert _uses(claude) == {"pdf-extract": 1}
    with path.open("a") as f:  # the writer finishes its line
        f.write(torn[40:] + "\n")
    assert run_cli("ingest", "claude-code", "-C", str(claude)).code == 0
    assert _uses(claude) == {"docker-build": 1, "pdf-extract": 1}


def test_since_and_paths_limit_what_is_read(claude: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "exported.jsonl"
    elsewhere.write_text(
        jsonl(
            [
                transcript_skill_line("pdf-extract", "toolu_old", T1),
                transcript_skill_line("pdf-extract", "toolu_new", T3),
            ]
        )
    )
    done = run_cli("ingest", "claude-code", str(elsewhere), "--since", T2, "-C", str(claude))
    assert done.code == 0, done
    assert _uses(claude) == {"pdf-extract": 1}
    # without --since the earlier event is read too (the offsets remember the --since)
    assert run_cli("ingest", "claude-code", str(elsewhere), "-C", str(claude)).code == 0
    assert _uses(claude) == {"pdf-extract": 2}


def test_a_backfilled_write_never_overrides_a_recorded_origin(claude: Path) -> None:
    new = write_skill(claude, "csv-dedupe")
    assert run_cli("commit", "-m", "a skill", "-C", str(claude)).code == 0  # records origin user
    _transcript(
        [
            transcript_write_result(new, "toolu_w", T1, created=True),
            transcript_write_result(
                claude / "pdf-extract" / "SKILL.md", "toolu_e", T2, created=False
            ),
        ]
    )
    assert run_cli("ingest", "claude-code", "-C", str(claude)).code == 0
    shown = {r["name"]: r for r in json.loads(run_cli("list", "--json", "-C", str(claude)).out)}
    # `commit` recorded origin user first: a later claim never overrides a recorded origin
    assert shown["csv-dedupe"]["origin"] == "user"
    assert shown["pdf-extract"]["last_patched_at"] == "2026-09-02T10:00:00Z"


def test_a_write_seen_only_in_a_transcript_gives_origin_agent(claude: Path) -> None:
    new = write_skill(claude, "csv-dedupe")
    _transcript([transcript_write_result(new, "toolu_w", T1, created=True)])
    assert run_cli("ingest", "claude-code", "-C", str(claude)).code == 0
    assert run_cli("commit", "-m", "the agent's skill", "-C", str(claude)).code == 0
    shown = json.loads(run_cli("show", "csv-dedupe", "--json", "-C", str(claude)).out)
    assert shown["origin"] == "agent"


def test_duplicates_across_a_flush_and_a_sync_count_once(tmp_path: Path) -> None:
    """Clone A records a use by hook and syncs; clone B backfills the same session and syncs;
    both end with one use, and A's next backfill changes nothing."""
    library = tmp_path / "library"
    write_skill(library, "pdf-extract")
    assert run_cli("init", str(library), "--quiet").code == 0
    bare = tmp_path / "remote.git"
    git("clone", "--quiet", "--bare", str(library), str(bare), cwd=tmp_path)
    a, b = clone(bare, tmp_path / "a"), clone(bare, tmp_path / "b")
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(jsonl([transcript_skill_line("pdf-extract", "toolu_X", T1)]))

    hook(
        "claude-code",
        a,
        io.BytesIO(json.dumps(skill_payload("pdf-extract", "toolu_X", a)).encode()),
    )
    assert run_cli("flush", "-C", str(a)).code == 0
    assert run_cli("sync", str(bare), "-C", str(a)).code == 0
    assert run_cli("ingest", "claude-code", str(transcript), "-C", str(b)).code == 0
    assert _uses(b) == {"pdf-extract": 1}, "B learnt the id from A's notes"
    # both count it before they hear of each other: the merge counts it once
    c = clone(bare, tmp_path / "c")
    assert run_cli("ingest", "claude-code", str(transcript), "-C", str(c)).code == 0
    assert run_cli("sync", str(bare), "-C", str(b)).code == 0
    assert run_cli("sync", str(bare), "-C", str(c)).code == 0
    assert run_cli("sync", str(bare), "-C", str(a)).code == 0
    for repo in (a, b, c):
        assert _uses(repo) == {"pdf-extract": 1}, repo
    (a / ".git" / "gitcurator" / "ingest").mkdir(parents=True, exist_ok=True)
    assert run_cli("ingest", "claude-code", str(transcript), "-C", str(a)).code == 0
    assert _uses(a) == {"pdf-extract": 1}
    with open_repo(a) as r:
        record = ledger.load(r.store).records["pdf-extract"]
    assert uses_by_source(h.sources for h in record.hosts.values()) == {"claude-code": 1}


def test_codex_rollouts_shell_reads_and_mentions_are_uses(tmp_path: Path) -> None:
    skills = Path.home() / ".agents" / "skills"
    write_skill(skills, "pdf-extract")
    write_skill(skills, "docker-build")
    assert run_cli("init", str(skills), "--quiet").code == 0
    day = Path.home() / ".codex" / "sessions" / "2026" / "09" / "01"
    day.mkdir(parents=True)
    session = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
    lines = [
        rollout_meta(session, T1),
        rollout_user("use $docker-build to ship it, not $HOME", T1),
        rollout_shell(["bash", "-lc", f"cat {skills}/pdf-extract/SKILL.md"], "call_1", T1),
        rollout_shell(
            f"sed -n '1,200p' {skills}/docker-build/SKILL.md", "call_2", T2, exec_command=True
        ),
        rollout_shell(["bash", "-lc", "ls"], "call_3", T2),
        {"timestamp": T2, "type": "turn_context", "payload": {"cwd": "/work"}},
    ]
    (day / f"rollout-2026-09-01T10-00-00-{session}.jsonl").write_text(jsonl(lines))
    done = run_cli("ingest", "codex", "-C", str(skills), "--json")
    assert done.code == 0, done
    assert json.loads(done.out)["recorded"] == 3
    assert _uses(skills) == {"docker-build": 2, "pdf-extract": 1}
    assert run_cli("ingest", "codex", "-C", str(skills)).code == 0
    assert _uses(skills) == {"docker-build": 2, "pdf-extract": 1}


@pytest.fixture
def hermes() -> Path:
    skills = Path.home() / ".hermes" / "skills"
    write_skill(skills, "pdf-extract")
    write_skill(skills, "docker-build")
    write_usage(
        skills,
        {
            "pdf-extract": hermes_record(
                use_count=3, view_count=3, last_used_at="2026-09-01T10:00:00+00:00"
            ),
            "devops/docker-build": hermes_record(use_count=1, created_by="agent"),
            "not-in-library": hermes_record(use_count=5),
        },
    )
    (Path.home() / ".hermes" / "config.yaml").write_text("model:\n  default: hermes-4\n")
    assert run_cli("connect", "hermes").code == 0
    return skills


def test_hermes_counts_only_what_grew_since_the_last_ingest(hermes: Path) -> None:
    done = run_cli("ingest", "hermes", "-C", str(hermes))
    assert done.code == 0, done
    assert _uses(hermes) == {"docker-build": 1, "pdf-extract": 3}
    assert run_cli("ingest", "hermes", "-C", str(hermes)).code == 0
    assert _uses(hermes) == {"docker-build": 1, "pdf-extract": 3}
    usage = json.loads((hermes / ".usage.json").read_text())
    usage["pdf-extract"]["use_count"] = 5
    write_usage(hermes, usage)
    assert run_cli("ingest", "hermes", "-C", str(hermes)).code == 0
    assert _uses(hermes) == {"docker-build": 1, "pdf-extract": 5}
    listed = json.loads(run_cli("list", "--json", "-C", str(hermes)).out)
    assert {r["name"]: r["origin"] for r in listed}["docker-build"] == "agent"
    connections = json.loads(run_cli("connect", "--list", "--json").out)
    assert connections[0]["unknown_names"] == {"not-in-library": 5}


def test_hermes_plugin_events_and_ingest_do_not_double_count(hermes: Path) -> None:
    from gitcurator.agents.hermes_plugin import post_tool_call

    usage = json.loads((hermes / ".usage.json").read_text())
    usage["pdf-extract"].update(use_count=4, view_count=4)  # Hermes' own bump ...
    write_usage(hermes, usage)
    result = json.dumps({"success": True, "name": "pdf-extract"})
    call = {"tool_name": "skill_view", "args": {"name": "pdf-extract"}, "result": result,
            "tool_call_id": "c1", "status": "ok"}  # fmt: skip
    post_tool_call(str(hermes), call)
    assert _uses(hermes)["pdf-extract"] == 1
    assert run_cli("ingest", "hermes", "-C", str(hermes)).code == 0
    assert _uses(hermes)["pdf-extract"] == 4, "the 4th use came by plugin and by ingest: once"


def test_a_lost_baseline_never_doubles_a_count(hermes: Path) -> None:
    assert run_cli("ingest", "hermes", "-C", str(hermes)).code == 0
    (hermes / ".git" / "gitcurator" / "ingest" / "hermes-baseline.json").unlink()
    assert run_cli("ingest", "hermes", "-C", str(hermes)).code == 0
    assert _uses(hermes) == {"docker-build": 1, "pdf-extract": 3}


def test_ingest_outside_a_repository_and_a_missing_usage_file_exit_1(tmp_path: Path) -> None:
    assert run_cli("ingest", "claude-code", "-C", str(tmp_path)).code == 1
    write_skill(tmp_path / "lib", "pdf-extract")
    assert run_cli("init", str(tmp_path / "lib"), "--quiet").code == 0
    done = run_cli("ingest", "hermes", "-C", str(tmp_path / "lib"))
    assert done.code == 1 and ".usage.json" in done.err


def test_paths_no_file_can_have_skip_their_event_and_not_the_ingest(claude: Path) -> None:
    # A NUL byte or a 300-character folder name in an agent's log made os.path.realpath raise
    # ValueError and is_file raise ENAMETOOLONG: the ingest died with exit 3.
    _transcript(
        [
            transcript_write_result(claude / "x\x00y" / "SKILL.md", "toolu_nul", T1, True),
            transcript_write_result(claude / "pdf-extract" / ("b" * 300) / "x.md", "t_l", T1, True),
            transcript_skill_line("a" * 300, "toolu_long", T1),
            transcript_skill_line("pdf-extract", "toolu_ok", T2),
        ]
    )
    done = run_cli("ingest", "claude-code", "-C", str(claude))
    assert done.code == 0, done
    assert _uses(claude) == {"pdf-extract": 1}


def test_a_hermes_key_with_a_nul_byte_does_not_poison_every_later_flush(hermes: Path) -> None:
    # Its `create` event reached the journal, and its note's tree entry (a NUL in a git tree
    # name) made every flush after it fail with exit 3.
    usage = json.loads((hermes / ".usage.json").read_text())
    usage["evil\x00name"] = hermes_record(use_count=1, created_by="agent")
    write_usage(hermes, usage)
    done = run_cli("ingest", "hermes", "-C", str(hermes))
    assert done.code == 0, done
    assert _uses(hermes) == {"docker-build": 1, "pdf-extract": 3}
    assert run_cli("record", "use", "pdf-extract", "-C", str(hermes)).code == 0
    assert run_cli("flush", "-C", str(hermes)).code == 0
    assert _uses(hermes)["pdf-extract"] == 4


def test_a_line_nested_thousands_deep_is_skipped_like_any_damaged_line(claude: Path) -> None:
    # json.loads raises RecursionError (not ValueError) on it: the ingest died with exit 3.
    deep = '{"type": "assistant", "name": "Skill", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path = _transcript([transcript_skill_line("pdf-extract", "toolu_1", T1)])
    path.write_text(deep + "\n" + path.read_text())
    done = run_cli("ingest", "claude-code", "-C", str(claude))
    assert done.code == 0, done
    assert _uses(claude) == {"pdf-extract": 1}


def test_codex_arguments_nested_thousands_deep_are_skipped(tmp_path: Path) -> None:
    skills = Path.home() / ".agents" / "skills"
    write_skill(skills, "pdf-extract")
    assert run_cli("init", str(skills), "--quiet").code == 0
    deep = rollout_shell(["cat", f"{skills}/pdf-extract/SKILL.md"], "call_deep", T1)
    deep["payload"]["arguments"] = "[" * 100_000 + "]" * 100_000 + " SKILL.md"
    lines = [deep, rollout_shell(["cat", f"{skills}/pdf-extract/SKILL.md"], "call_1", T1)]
    log = tmp_path / "rollout-2026-09-01T10-00-00-s.jsonl"
    log.write_text(jsonl(lines))
    done = run_cli("ingest", "codex", "-C", str(skills), str(log))
    assert done.code == 0, done
    assert _uses(skills) == {"pdf-extract": 1}

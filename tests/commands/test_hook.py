"""`gitcurator hook`: real processes started with the exact command `connect` wrote.

Whatever arrives, the hook exits 0 and prints nothing on stdout; what it cannot record is
logged in .git/gitcurator/hook.log.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support.agents import (
    our_command,
    prompt_payload,
    run_hook,
    skill_payload,
    write_payload,
)
from support.repos import run_cli, write_skill

from gitcurator.library import open_repo
from gitcurator.telemetry import ledger


@pytest.fixture
def claude(tmp_path: Path) -> tuple[Path, str]:
    """A Claude Code home with two skills, connected; (skills folder, installed command)."""
    skills = Path.home() / ".claude" / "skills"
    write_skill(skills, "pdf-extract")
    write_skill(skills, "docker-build")
    result = run_cli("connect", "claude-code")
    assert result.code == 0, result
    return skills, our_command(Path.home() / ".claude" / "settings.json")


def _records(skills: Path) -> dict[str, ledger.UsageRecord]:
    with open_repo(skills) as repo:
        return ledger.load(repo.store).records


def _log(skills: Path) -> str:
    path = skills / ".git" / "gitcurator" / "hook.log"
    return path.read_text() if path.exists() else ""


def test_a_skill_load_is_a_use_from_claude_code(claude: tuple[Path, str], tmp_path: Path) -> None:
    skills, command = claude
    done = run_hook(command, json.dumps(skill_payload("pdf-extract", "toolu_01A", tmp_path)))
    assert (done.returncode, done.stdout) == (0, b"")
    record = _records(skills)["pdf-extract"]
    assert record.use_count == 1
    assert next(iter(record.hosts.values())).sources["claude-code"].use_count == 1


def test_an_old_build_slash_command_and_a_typed_prompt_are_uses(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    skills, command = claude
    old = skill_payload("docker-build", "toolu_02", tmp_path, old_build=True)
    assert run_hook(command, json.dumps(old)).returncode == 0
    prompt = json.dumps(prompt_payload("/docker-build push it", tmp_path))
    assert run_hook(command, prompt).stdout == b""
    assert run_hook(command, prompt).returncode == 0  # the same prompt again: counts once
    assert run_hook(command, json.dumps(prompt_payload("/clear", tmp_path))).returncode == 0
    records = _records(skills)
    assert records["docker-build"].use_count == 2
    assert "clear" not in records
    assert _log(skills) == ""


def test_a_skill_the_agent_writes_is_its_own_and_an_edit_is_a_patch(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    skills, command = claude
    new = write_skill(skills, "csv-dedupe")
    run_hook(command, json.dumps(write_payload(new, "toolu_w1", tmp_path, created=True)))
    edited = skills / "pdf-extract" / "SKILL.md"
    run_hook(command, json.dumps(write_payload(edited, "toolu_e1", tmp_path, tool="Edit")))
    records = _records(skills)
    assert records["csv-dedupe"].origin is not None
    assert records["csv-dedupe"].origin.value == "agent"
    assert records["pdf-extract"].origin is None  # an edit gives no origin
    shown = json.loads(run_cli("show", "pdf-extract", "--json", "-C", str(skills)).out)
    assert shown["last_patched_at"] is not None


@pytest.mark.parametrize(
    "stdin",
    [b"", b"   \n", b"not json at all", b"[1, 2, 3]", b"\xff\xfe\x00garbage"],
    ids=["empty", "blank", "non-json", "not-an-object", "binary"],
)
def test_bad_input_exits_0_silently_and_is_logged(claude: tuple[Path, str], stdin: bytes) -> None:
    skills, command = claude
    done = run_hook(command, stdin)
    assert (done.returncode, done.stdout) == (0, b"")
    assert _log(skills), "the failure is in hook.log"
    assert _records(skills) == {}


def test_a_10_mb_payload_is_read_and_recorded(claude: tuple[Path, str], tmp_path: Path) -> None:
    skills, command = claude
    payload = write_payload(skills / "pdf-extract" / "SKILL.md", "toolu_big", tmp_path, tool="Edit")
    payload["tool_input"]["new_string"] = "x" * (10 << 20)
    done = run_hook(command, json.dumps(payload))
    assert (done.returncode, done.stdout) == (0, b"")
    assert _records(skills)["pdf-extract"].hosts


def test_paths_outside_the_library_and_unknown_skills_record_nothing(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    skills, command = claude
    outside = tmp_path / "elsewhere" / "SKILL.md"
    run_hook(command, json.dumps(write_payload(outside, "toolu_o", tmp_path)))
    run_hook(
        command, json.dumps(write_payload(skills / ".archive" / "x" / "SKILL.md", "t", tmp_path))
    )
    run_hook(command, json.dumps(skill_payload("plugin:other-skill", "toolu_u", tmp_path)))
    assert _records(skills) == {}
    listed = json.loads(run_cli("connect", "--list", "--json").out)
    assert listed[0]["unknown"] == 1
    assert listed[0]["unknown_names"] == {"plugin:other-skill": 1}


def test_a_symlinked_library_takes_writes_through_either_path(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "skills"
    write_skill(real, "pdf-extract")
    (Path.home() / ".claude").mkdir()
    (Path.home() / ".claude" / "skills").symlink_to(real)
    assert run_cli("connect", "claude-code").code == 0
    command = our_command(Path.home() / ".claude" / "settings.json")
    linked = Path.home() / ".claude" / "skills" / "new-one" / "SKILL.md"
    write_skill(real, "new-one")
    run_hook(command, json.dumps(write_payload(linked, "t1", tmp_path)))
    run_hook(
        command,
        json.dumps(write_payload(real / "pdf-extract" / "SKILL.md", "t2", tmp_path, tool="Edit")),
    )
    records = _records(real)
    assert records["new-one"].origin is not None
    assert records["pdf-extract"].hosts


def test_a_library_that_is_not_a_repository_any_more_is_logged_on_stderr(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    skills, command = claude
    import shutil

    shutil.rmtree(skills / ".git")
    done = run_hook(command, json.dumps(skill_payload("pdf-extract", "t", tmp_path)))
    assert (done.returncode, done.stdout) == (0, b"")
    assert b"not inside a skills repository" in done.stderr


def test_eight_concurrent_hooks_lose_nothing_and_duplicates_count_once(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    skills, command = claude
    payloads = [skill_payload("pdf-extract", f"toolu_{i % 4}", tmp_path) for i in range(8)]
    procs = [
        subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        for _ in payloads
    ]
    for proc, payload in zip(procs, payloads, strict=True):
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(payload).encode())
        proc.stdin.close()
    for proc in procs:
        assert proc.wait(timeout=120) == 0
        assert proc.stdout is not None and proc.stdout.read() == b""
    lines = (skills / ".git" / "gitcurator" / "journal.jsonl").read_text().splitlines()
    assert len(lines) == 8, "every hook's line is in the journal"
    assert _records(skills)["pdf-extract"].use_count == 4, "4 distinct tool_use_ids"
    assert run_cli("flush", "-C", str(skills)).code == 0
    assert _records(skills)["pdf-extract"].use_count == 4


def test_the_hook_imports_no_click_dulwich_or_yaml(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    command = claude[1]
    payload = json.dumps(skill_payload("pdf-extract", "t", tmp_path))
    run_hook(command, payload)  # the names cache is built once (the slow path) ...
    probe = command.replace(" -m gitcurator ", " -X importtime -m gitcurator ")
    done = run_hook(probe, payload)  # ... then the hook stays on the fast path
    assert done.returncode == 0
    imported = done.stderr.decode()
    assert "gitcurator.agents.delivery" in imported, "importtime output is there to check"
    for heavy in ("click", "dulwich", "yaml"):
        assert f" {heavy}\n" not in imported and f" {heavy}." not in imported, heavy


@pytest.mark.parametrize("name", ["hook.log", "journal.jsonl"])
def test_a_state_file_symlinked_elsewhere_is_not_written_through(
    claude: tuple[Path, str], tmp_path: Path, name: str
) -> None:
    skills, command = claude
    victim = tmp_path / "victim"
    victim.write_bytes(b"theirs\n")
    state = skills / ".git" / "gitcurator"
    state.mkdir(exist_ok=True)
    (state / name).unlink(missing_ok=True)
    (state / name).symlink_to(victim)
    for stdin in (b"not json", json.dumps(skill_payload("pdf-extract", "toolu_s", tmp_path))):
        done = run_hook(command, stdin)
        assert (done.returncode, done.stdout) == (0, b"")
    assert victim.read_bytes() == b"theirs\n"


def test_an_unknown_name_with_control_characters_is_listed_escaped_on_one_line(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    _, command = claude
    run_hook(command, json.dumps(skill_payload("evil\x1b[2J\x07name", "toolu_e", tmp_path)))
    run_hook(command, json.dumps(skill_payload("x" * 5000, "toolu_x", tmp_path)))
    listed = json.loads(run_cli("connect", "--list", "--json").out)[0]
    assert listed["unknown"] == 2
    assert set(listed["unknown_names"]) == {"evil\\x1b[2J\\x07name", "x" * 200 + "..."}
    assert "\x1b" not in run_cli("connect", "--list").out


def test_a_hook_without_c_run_from_a_deleted_folder_exits_0(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    _, command = claude
    without_c = command.split(" -C ")[0]
    gone = tmp_path / "gone"
    payload = json.dumps(skill_payload("pdf-extract", "toolu_g", tmp_path))
    done = run_hook(f"mkdir {gone} && cd {gone} && rmdir {gone} && {without_c}", payload)
    assert (done.returncode, done.stdout) == (0, b"")
    assert b"Traceback" not in done.stderr


def test_an_agent_without_a_hook_is_logged_by_name(claude: tuple[Path, str]) -> None:
    skills, command = claude
    done = run_hook(command.replace("claude-code", "claude"), b"{}")
    assert (done.returncode, done.stdout) == (0, b"")
    assert "no hook for 'claude' (known agents: claude-code, codex)" in _log(skills)


def test_a_load_of_an_archived_skill_is_kept_as_wanted(
    claude: tuple[Path, str], tmp_path: Path
) -> None:
    skills, command = claude
    assert run_cli("archive", "docker-build", "-C", str(skills)).code == 0
    for tool_use in ("toolu_01W", "toolu_01W", "toolu_02W"):  # the first one sent twice
        done = run_hook(command, json.dumps(skill_payload("docker-build", tool_use, tmp_path)))
        assert (done.returncode, done.stdout) == (0, b"")
    record = _records(skills)["docker-build"]
    assert (record.wanted_count, record.use_count) == (2, 0)
    assert _log(skills) == ""
    proposed = run_cli("run", "--dry-run", "--json", "-C", str(skills))
    assert json.loads(proposed.out)["restores"][0]["skill"] == "docker-build"

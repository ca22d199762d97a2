"""Progress on a real terminal (stderr on a pty): shown for init and validate over a few
hundred skills, never when stderr is a pipe, never with --json or --quiet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.agents import jsonl, transcript_skill_line
from support.remotes import clone, make_remote
from support.repos import run_process, write_skill
from support.terminal import run_on_a_terminal, run_on_terminal

SKILLS = 300
BARS = ("reading files", "validating skills", "indexing skill names", "%")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    for i in range(SKILLS):
        write_skill(root, f"cat{i % 7}/skill-{i:03d}")
    return root


def test_init_and_validate_show_bars_on_a_terminal(library: Path) -> None:
    init = run_on_a_terminal("init", str(library))
    assert init.code == 0, init
    assert f"committed {SKILLS} skills" in init.out
    for label in ("reading files", "validating skills", "writing the commit"):
        assert label in init.terminal, init.terminal[-2000:]
    assert f"{SKILLS}/{SKILLS}" in init.terminal
    checked = run_on_a_terminal("validate", "-C", str(library))
    assert checked.code == 0, checked
    assert f"{SKILLS} skills checked" in checked.out
    assert "validating skills" in checked.terminal and f"{SKILLS}/{SKILLS}" in checked.terminal
    # The bar is drawn on stderr only: stdout, piped, holds the result alone.
    assert "validating" not in checked.out


def test_piped_stderr_gets_no_progress(library: Path) -> None:
    init = run_process("init", str(library))
    assert init.returncode == 0, init.stderr
    checked = run_process("validate", "-C", str(library))
    assert checked.returncode == 0, checked.stderr
    for label in BARS:
        assert label not in init.stderr and label not in checked.stderr


def test_json_and_quiet_get_no_progress_even_on_a_terminal(library: Path) -> None:
    init = run_on_a_terminal("init", "--quiet", str(library))
    assert init.code == 0 and init.out == "", init
    checked = run_on_a_terminal("validate", "--json", "-C", str(library))
    assert checked.code == 0, checked
    assert json.loads(checked.out)["skills_checked"] == SKILLS
    for label in BARS:
        assert label not in init.terminal and label not in checked.terminal


def test_import_hermes_and_ingest_show_bars_on_a_terminal_and_none_with_json(
    library: Path, tmp_path: Path
) -> None:
    target = tmp_path / "repo"
    assert run_process("init", str(target)).returncode == 0
    imported = run_on_a_terminal("import", "hermes", str(library), "-C", str(target))
    assert imported.code == 0, imported
    assert "copying skills" in imported.terminal and "validating skills" in imported.terminal
    logs = tmp_path / "transcripts"
    logs.mkdir()
    for i in range(40):
        line = transcript_skill_line(f"skill-{i:03d}", f"toolu_{i:03d}", "2026-02-01T00:00:00Z")
        (logs / f"session-{i}.jsonl").write_text(jsonl([line]))
    ingested = run_on_a_terminal("ingest", "claude-code", str(logs), "-C", str(target))
    assert ingested.code == 0, ingested
    assert "reading claude-code logs" in ingested.terminal and "40/40" in ingested.terminal
    again = run_on_a_terminal("ingest", "claude-code", str(logs), "--json", "-C", str(target))
    assert again.code == 0, again
    assert json.loads(again.out) and "reading" not in again.terminal


def test_sync_on_a_terminal_shows_no_progress_with_json(tmp_path: Path) -> None:
    here = clone(make_remote(tmp_path), tmp_path / "here")
    quiet = run_on_a_terminal("sync", "--json", "-C", str(here))
    assert quiet.code == 0, quiet
    assert json.loads(quiet.out)["remote"] == "origin"
    assert "objects" not in quiet.terminal and "%" not in quiet.terminal
    shown = run_on_a_terminal("sync", "-C", str(here))
    assert shown.code == 0, shown
    assert "synced with origin" in shown.out


def test_ctrl_c_during_a_bar_exits_130_with_the_bar_erased_and_the_cursor_shown(
    tmp_path: Path,
) -> None:
    root = tmp_path / "big"
    for i in range(3000):
        write_skill(root, f"cat{i % 9}/skill-{i:04d}")
    code, shown = run_on_terminal(["init", str(root)], tmp_path, interrupt_on=b"validating skills")
    assert code == 130, shown[-2000:]
    assert shown.rstrip().endswith("gitcurator: interrupted") and "Traceback" not in shown
    # click hides the cursor while a bar is drawn: the last word on it must show it again.
    assert shown.rfind("\x1b[?25h") > shown.rfind("\x1b[?25l")
    assert not (root / ".git").exists()  # the first commit was not half made

"""`review --diff` on a real terminal: coloured and paged as `git diff` is; plain when piped,
with NO_COLOR, or with --no-pager (unpaged, still coloured)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.repos import run_cli
from support.terminal import run_on_terminal

NOW = "2026-11-01T12:00:00Z"
GREEN, RED_OR_BOLD = "\x1b[32m", "\x1b[1m"
# A pager that says it ran, then shows its input as it is.
PAGER = "echo PAGED-BY-THE-PAGER; cat"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("paging") / "demo"
    assert run_cli("demo", str(root), "--now", NOW).code == 0
    return root


def test_on_a_terminal_the_diff_is_coloured_and_goes_through_the_pager(demo: Path) -> None:
    code, shown = run_on_terminal(
        ["review", "--diff"], demo, {"PAGER": PAGER, "GIT_PAGER": None, "NO_COLOR": None}
    )
    assert code == 0, shown
    assert shown.startswith("PAGED-BY-THE-PAGER\n")
    assert f"{GREEN}+# Curator pass 20261101-120000" in shown
    assert f"{RED_OR_BOLD}diff --git a/coding/git-lfs-migrate/SKILL.md" in shown
    assert "rename to .archive/coding/git-lfs-migrate/SKILL.md" in shown


def test_git_pager_wins_over_pager(demo: Path) -> None:
    code, shown = run_on_terminal(
        ["review", "--diff"], demo, {"GIT_PAGER": "echo BY-GIT-PAGER; cat", "PAGER": PAGER}
    )
    assert code == 0, shown
    assert shown.startswith("BY-GIT-PAGER\n") and "PAGED-BY-THE-PAGER" not in shown


def test_no_pager_prints_straight_to_the_terminal_still_coloured(demo: Path) -> None:
    code, shown = run_on_terminal(
        ["review", "--diff", "--no-pager"], demo, {"PAGER": PAGER, "NO_COLOR": None}
    )
    assert code == 0, shown
    assert "PAGED-BY-THE-PAGER" not in shown and GREEN in shown


def test_no_color_turns_colour_off_on_a_terminal(demo: Path) -> None:
    code, shown = run_on_terminal(["review", "--diff"], demo, {"PAGER": PAGER, "NO_COLOR": "1"})
    assert code == 0, shown
    assert shown.startswith("PAGED-BY-THE-PAGER\n") and "\x1b[" not in shown
    assert "+# Curator pass 20261101-120000" in shown


@pytest.mark.parametrize("term", ["dumb", None])
def test_a_dumb_or_unknown_terminal_gets_no_colour_as_from_git(
    demo: Path, term: str | None
) -> None:
    code, shown = run_on_terminal(
        ["review", "--diff", "--no-pager"], demo, {"TERM": term, "NO_COLOR": None}
    )
    assert code == 0, shown
    assert "\x1b[" not in shown and "+# Curator pass 20261101-120000" in shown


def test_an_empty_no_color_is_not_set_as_no_color_org_says(demo: Path) -> None:
    code, shown = run_on_terminal(["review", "--diff", "--no-pager"], demo, {"NO_COLOR": ""})
    assert code == 0, shown
    assert GREEN in shown


def test_a_pager_that_cannot_start_still_shows_the_diff(demo: Path) -> None:
    code, shown = run_on_terminal(
        ["review", "--diff"], demo, {"GIT_PAGER": "/no/such/pager", "NO_COLOR": "1"}
    )
    assert code == 0, shown
    assert "rename from coding/git-lfs-migrate/SKILL.md" in shown


def test_piped_output_has_no_pager_and_no_colour(demo: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gitcurator", "review", "--diff"],
        cwd=demo,
        capture_output=True,
        text=True,
        env={**os.environ, "PAGER": PAGER},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "PAGED-BY-THE-PAGER" not in done.stdout and "\x1b[" not in done.stdout
    assert "rename from coding/git-lfs-migrate/SKILL.md" in done.stdout


def test_the_screen_without_diff_is_never_paged(demo: Path) -> None:
    code, shown = run_on_terminal(["review"], demo, {"PAGER": PAGER})
    assert code == 0, shown
    assert "PAGED-BY-THE-PAGER" not in shown and "\x1b[" not in shown
    assert shown.startswith("pass 20261101-120000")


def test_a_pager_quit_before_the_end_is_no_error(demo: Path) -> None:
    code, shown = run_on_terminal(["review", "--diff"], demo, {"GIT_PAGER": "head -n 1"})
    assert code == 0, shown
    assert shown == "pass 20261101-120000 at 2026-11-01T12:00:00Z: pending review on " + (
        "curator/20261101-120000\n"
    )
    # A pager that closes its input at once (the write meets a closed pipe, or not: a race).
    code, shown = run_on_terminal(["review", "--diff"], demo, {"GIT_PAGER": "exec 0<&-; sleep 1"})
    assert code == 0 and "Traceback" not in shown, shown


def test_a_pager_with_arguments_and_a_quoted_path_runs_as_the_shell_reads_it(
    demo: Path, tmp_path: Path
) -> None:
    pager = tmp_path / "my pager"
    pager.write_text('#!/bin/sh\necho "MINE $1"; cat\n')
    pager.chmod(0o755)
    code, shown = run_on_terminal(["review", "--diff"], demo, {"GIT_PAGER": f'"{pager}" -R'})
    assert code == 0, shown
    assert shown.startswith("MINE -R\n") and "rename from coding/git-lfs-migrate" in shown


def test_git_s_core_pager_comes_between_git_pager_and_pager(demo: Path) -> None:
    subprocess.run(["git", "config", "core.pager", "echo BY-CORE-PAGER; cat"], cwd=demo, check=True)
    try:
        code, shown = run_on_terminal(
            ["review", "--diff"], demo, {"PAGER": PAGER, "GIT_PAGER": None}
        )
        assert code == 0, shown
        assert shown.startswith("BY-CORE-PAGER\n")
        code, shown = run_on_terminal(
            ["review", "--diff"], demo, {"PAGER": PAGER, "GIT_PAGER": "echo BY-GIT-PAGER; cat"}
        )
        assert shown.startswith("BY-GIT-PAGER\n")
    finally:
        subprocess.run(["git", "config", "--unset", "core.pager"], cwd=demo, check=True)


def test_ctrl_c_while_the_pager_runs_is_the_pager_s_as_in_git(demo: Path) -> None:
    # The pager is still reading when Ctrl-C comes: review waits for it, and is no error.
    pager = "echo PAGER-STARTED; sleep 1; echo PAGER-DONE; cat"
    code, shown = run_on_terminal(
        ["review", "--diff"], demo, {"GIT_PAGER": pager}, interrupt_on=b"PAGER-STARTED"
    )
    assert code == 0, shown
    assert "PAGER-DONE" in shown and "rename from coding/git-lfs-migrate" in shown

"""Started with stdout (or stderr) closed, `>&-`: a command does its work and what it would
print goes nowhere, as git's does, where the first write was an internal error (exit 3)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from support.repos import git

NOW = "2026-06-01T00:00:00Z"


def _closed(repo: Path, args: str, closing: str = ">&-") -> subprocess.CompletedProcess[str]:
    command = f"{shlex.quote(sys.executable)} -m gitcurator {args} {closing}"
    return subprocess.run(
        ["bash", "-c", command], cwd=repo, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "args",
    ["list", "list --json", "status", f"run --dry-run --now {NOW}", "record use pdf-extract"],
)
def test_a_command_with_stdout_closed_works_and_says_nothing(repo: Path, args: str) -> None:
    done = _closed(repo, args)
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr


def test_a_pass_with_both_streams_closed_still_makes_its_branch(agent_repo: Path) -> None:
    # Years on: pdf-extract, agent-made and never used, is archived.
    done = _closed(agent_repo, "run --now 2030-01-01T00:00:00Z", ">&- 2>&-")
    assert done.returncode == 0
    assert git("branch", "--list", "curator/*", cwd=agent_repo).stdout.strip()


@pytest.mark.parametrize("closing", ["<&-", "<&- >&- 2>&-"])
def test_the_mcp_server_started_with_stdin_closed_ends_as_at_end_of_input(
    repo: Path, closing: str
) -> None:
    # Its input was never there: the server sees end of input and stops, as with </dev/null
    # (an internal error reading sys.stdin, None, before).
    done = _closed(repo, "mcp", closing)
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr


def test_a_file_opened_after_all_three_streams_were_closed_takes_no_standard_descriptor(
    tmp_path: Path,
) -> None:
    # Each closed stream's descriptor is taken by /dev/null, so a file the command opens
    # (the journal, a lock) never sits on fd 1 or 2, where a child or a stray write to the
    # process's stdout or stderr would land in it.
    probe = (
        "import os; from gitcurator.entry import _closed_streams_to_devnull; "
        "_closed_streams_to_devnull(); raise SystemExit(os.open(os.devnull, os.O_RDONLY))"
    )
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(probe)} <&- >&- 2>&-"
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, timeout=60)
    assert done.returncode == 3

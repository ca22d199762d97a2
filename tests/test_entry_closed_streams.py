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

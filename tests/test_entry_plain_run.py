"""entry.py's plain `run` (with `--json`, `--dry-run`, `--now T`, `-C PATH`) skips click:
the same output, stderr, exit code and commits as the CLI gives; anything else is click's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.repos import git, run_cli, run_process

from gitcurator.commands import plain as entry

NOW = "2027-06-01T00:00:00Z"


def _fast(args: list[str], cwd: Path) -> tuple[int, str, str]:
    done = run_process(*args, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--dry-run", "--json", "--now", NOW],
        ["run", "--dry-run", "--now", NOW],
        ["run", "--json", "--now", NOW],
        ["run", "--now", NOW],
    ],
)
def test_a_plain_run_says_and_writes_what_click_does(
    agent_repo: Path, tmp_path: Path, args: list[str]
) -> None:
    other = tmp_path / "other"
    shutil.copytree(agent_repo, other, symlinks=True)
    assert entry.plain_command(args) is not None  # this process has no terminal
    fast = _fast([*args, "-C", str(agent_repo)], tmp_path)
    slow = run_cli(*args, "-C", str(other))  # run_cli always goes through click
    assert fast == (slow.code, slow.out.replace(str(other), str(agent_repo)), slow.err)
    assert fast[0] == 0 and "pdf-extract" in fast[1]
    # The same branches with the same trees (the commits' times may differ by a second).
    branches = "for-each-ref", "--format=%(refname) %(tree)", "refs/heads"
    assert git(*branches, cwd=agent_repo).stdout == git(*branches, cwd=other).stdout


def test_the_group_option_and_a_bad_start_end_as_in_the_cli(agent_repo: Path) -> None:
    args = ["-C", str(agent_repo), "run", "--dry-run", "--json", "--now", NOW]
    assert entry.plain_command(args) is not None
    fast = _fast(args, agent_repo.parent)
    slow = run_cli(*args)
    assert fast == (slow.code, slow.out, slow.err)
    # Outside a repository and with a bad --now: click's messages and exit codes.
    for bad in (
        ["run", "--dry-run", "--json", "-C", str(agent_repo.parent)],
        ["run", "--dry-run", "--now", "yesterday", "-C", str(agent_repo)],
    ):
        assert entry.plain_command(bad) is not None
        fast = _fast(bad, agent_repo.parent)
        slow = run_cli(*bad)  # run_cli always goes through click
        assert fast == (slow.code, slow.out, slow.err) and fast[0] in (1, 2)


def test_only_the_plain_forms_of_run_skip_click(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    for args in (
        ["run", "--help"],
        ["run", "--consolidate"],
        ["run", "--now"],
        ["run", "--now", "--json"],
        ["run", "--now=2026-01-01"],
        ["run", "--json", "--json"],
        ["run", "-C", ""],
        ["run", "-C", str(a_file)],
        ["run", "extra"],
        ["maybe-run"],
        ["-C", str(tmp_path), "list", "run"],
    ):
        assert entry.plain_command(args) is None, args
    assert entry.plain_command(["run"]) is not None

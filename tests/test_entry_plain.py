"""entry.py's plain `list` and `validate` (alone or with `--json`) skip click: the same
output, stderr and exit code as the CLI gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.repos import run_cli, run_process, write_skill

from gitcurator import entry


def _fast(args: list[str], cwd: Path) -> tuple[int, str, str]:
    done = run_process(*args, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args", [["list"], ["list", "--json"], ["validate"], ["validate", "--json"]]
)
def test_a_plain_command_says_what_click_says(repo: Path, args: list[str]) -> None:
    # A skill without a description: validate fails (exit 1) with an error, list still lists.
    write_skill(repo, "broken", body="---\nname: broken\n---\n# no description\n")
    assert entry.plain_command(args) is not None  # this process has no terminal
    fast = _fast(args, repo)
    slow = run_cli(*args, cwd=repo)
    assert fast == (slow.code, slow.out, slow.err)
    if args[0] == "validate":
        assert fast[0] == 1 and re.search("broken", fast[1] + fast[2])


def test_only_the_plain_forms_skip_click() -> None:
    for args in (["list", "--state", "stale"], ["validate", "--strict"], ["list", "-C", "."]):
        assert entry.plain_command(args) is None
    assert entry.plain_command(["list", "--json"]) is not None


def test_a_plain_command_outside_a_repository_fails_as_the_cli_does(tmp_path: Path) -> None:
    for args in (["list"], ["validate", "--json"]):
        fast = _fast(args, tmp_path)
        slow = run_cli(*args, cwd=tmp_path)
        assert fast == (slow.code, slow.out, slow.err)
        assert fast[0] == 1 and "gitcurator init" in fast[2]

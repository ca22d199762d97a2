"""entry.py's plain `list` and `validate` (alone or with `--json`) skip click: the same
output, stderr and exit code as the CLI gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.repos import git, run_cli, run_process, write_skill

from gitcurator.commands import plain as entry


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


def test_only_the_plain_forms_skip_click(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    for args in (
        ["list", "--state", "stale"],
        ["validate", "--strict"],
        ["sync", "upstream"],
        ["sync", "--force"],
        ["list", "-C"],
        ["list", "-C", ""],
        ["list", "-C", "--json"],
        ["list", "-C", ".", "-C", "."],
        ["list", "--json", "--json"],
        ["validate", "-C", str(a_file)],
        ["-C", str(a_file), "flush", "-C", str(tmp_path)],  # click refuses the group's -C
        ["-C", "", "list"],
    ):
        assert entry.plain_command(args) is None, args
    for args in (
        ["list", "--json"],
        ["list", "-C", "."],
        ["-C", str(tmp_path), "validate", "--json"],
        ["flush", "-C", str(tmp_path / "not-yet")],  # click takes a folder that is not there
        ["sync", "--json", "-C", "."],
    ):
        assert entry.plain_command(args) is not None, args


@pytest.mark.parametrize(
    "args",
    [
        ["list", "--json", "-C", "REPO"],
        ["-C", "REPO", "validate"],
        ["-C", "ELSEWHERE", "list", "-C", "REPO"],
        ["validate", "--json", "-C", "REPO/devops"],
        ["list", "-C", "ELSEWHERE"],
    ],
)
def test_a_plain_command_in_another_folder_says_what_click_says(
    repo: Path, tmp_path: Path, args: list[str]
) -> None:
    write_skill(repo, "broken", body="---\nname: broken\n---\n# no description\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    given = [a.replace("REPO", str(repo)).replace("ELSEWHERE", str(elsewhere)) for a in args]
    assert entry.plain_command(given) is not None
    fast = _fast(given, tmp_path)
    slow = run_cli(*given, cwd=tmp_path)
    assert fast == (slow.code, slow.out, slow.err)
    # The folder the command's own -C names wins over the group's, as in click.
    if args[-1] == "ELSEWHERE":
        assert fast[0] == 1 and "gitcurator init" in fast[2]
    elif "validate" in args:
        assert fast[0] == 1 and "broken" in fast[1] + fast[2]
    else:
        assert fast[0] == 0 and "docker-build" in fast[1]


def test_a_plain_command_outside_a_repository_fails_as_the_cli_does(tmp_path: Path) -> None:
    for args in (["list"], ["validate", "--json"]):
        fast = _fast(args, tmp_path)
        slow = run_cli(*args, cwd=tmp_path)
        assert fast == (slow.code, slow.out, slow.err)
        assert fast[0] == 1 and "gitcurator init" in fast[2]


def _ended(args: list[str], cwd: Path, script: str = "") -> tuple[int, str]:
    """Exit code and stderr of gitcurator `args` writing into a pipe nobody reads any more,
    after `script` (Python run first, in the same process)."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    code = f"{script}\nimport sys\nsys.argv = ['gitcurator', *sys.argv[1:]]\n"
    code += "from gitcurator.entry import main\nmain()\n"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=cwd,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr


# Run first in the process: every command goes through click.
_CLICK_ONLY = "import gitcurator.commands.plain as p\np.plain_command = lambda args: None\n"


def test_a_reader_gone_ends_a_plain_command_as_it_ends_the_cli(repo: Path) -> None:
    # click exits 1 when stdout's reader went away; the fast path does the same.
    for plain in (["list"], ["validate", "--json"], ["flush"]):
        assert _ended(plain, repo) == _ended(plain, repo, _CLICK_ONLY)


def test_end_of_input_in_a_plain_command_is_an_interrupt_as_in_the_cli(repo: Path) -> None:
    script = (
        "import gitcurator.commands.list as command\n"
        "def ended(*args, **kwargs):\n"
        "    raise EOFError\n"
        "command.list_skills = ended\n"
    )
    fast, slow = _ended(["list"], repo, script), _ended(["list"], repo, _CLICK_ONLY + script)
    assert fast == slow
    assert fast == (130, "\ngitcurator: interrupted\n")


def test_shell_completion_is_left_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_GITCURATOR_COMPLETE", "bash_source")
    assert entry.plain_command(["list"]) is None


@pytest.mark.parametrize("args", [["sync"], ["sync", "--json"]])
def test_a_plain_sync_says_what_click_says(tmp_path: Path, args: list[str]) -> None:
    import shutil

    from support.remotes import clone, make_remote, record

    bare = make_remote(tmp_path)
    first = clone(bare, tmp_path / "first")
    record(first, "x", 3, "2026-11-01T00:00:00Z")
    # Two copies of one clone with a record the remote lacks: each sync pushes it.
    second = tmp_path / "second"
    shutil.copytree(first, second, symlinks=True)
    second_bare = tmp_path / "remote2.git"
    shutil.copytree(bare, second_bare, symlinks=True)
    git("remote", "set-url", "origin", str(second_bare), cwd=second)
    assert entry.plain_command(args) is not None
    fast = _fast(args, first)
    slow = run_cli(*args, "-C", str(second))
    assert fast[0] == slow.code == 0

    # The same words; only the remote's path and the new commits' ids (their times) differ.
    def same(text: str, remote: Path) -> str:
        return re.sub(r"\b[0-9a-f]{12,40}\b", "ID", text.replace(str(remote), "R"))

    assert same(fast[1], bare) == same(slow.out, second_bare)
    assert fast[2] == slow.err
    assert "1 skill record sent" in fast[1] or '"records_sent": 1' in fast[1]

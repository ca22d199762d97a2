"""The command line as a whole: help, errors, exit codes, -C, README coverage."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from support.repos import run_cli, run_process

from gitcurator.cli import cli

README = Path(__file__).parents[1] / "README.md"


def _walk(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    """Every command of the live click tree by its full name (`hooks install`), groups too."""
    found = []
    for name, cmd in sorted(group.commands.items()):
        path = f"{prefix}{name}"
        found.append((path, cmd))
        if isinstance(cmd, click.Group):
            found += _walk(cmd, path + " ")
    return found


COMMANDS = _walk(cli)
LEAVES = [path for path, cmd in COMMANDS if not isinstance(cmd, click.Group)]


def test_the_walk_reaches_into_groups() -> None:
    # If it did not, the tests below would pass on a tree they never looked at.
    assert {"demo", "hooks install", "import hermes", "run"} <= set(LEAVES)


def test_top_level_help_lists_every_command_with_one_line() -> None:
    result = run_cli("--help")
    assert result.code == 0
    for name in cli.commands:
        line = next((ln for ln in result.out.splitlines() if ln.strip().startswith(name + " ")), "")
        assert line, f"{name} missing from --help"
        assert not line.rstrip().endswith("..."), f"help line of {name} is cut: {line!r}"


@pytest.mark.parametrize("path", [path for path, _ in COMMANDS])
def test_every_command_has_help_and_is_in_readme(path: str) -> None:
    cmd = dict(COMMANDS)[path]
    assert cmd.help and len(cmd.help.strip()) > 20
    result = run_cli(*path.split(), "--help")
    assert result.code == 0
    first = " ".join(cmd.help.strip().splitlines()[0].split())
    assert first in " ".join(result.out.split())
    readme = README.read_text()
    assert f"`{path}" in readme or f"gitcurator {path}" in readme, f"README lacks {path}"


def test_outside_a_repository_says_so_and_how_to_fix(tmp_path: Path) -> None:
    result = run_cli("validate", "-C", str(tmp_path))
    assert result.code == 1
    assert "is not inside a skills repository" in result.err
    assert f"gitcurator init {tmp_path}" in result.err
    assert "Traceback" not in result.err


def test_dash_c_works_before_and_after_the_command(repo: Path, tmp_path: Path) -> None:
    assert run_cli("-C", str(repo), "validate").code == 0
    assert run_cli("validate", "-C", str(repo)).code == 0
    assert run_cli("validate", cwd=repo).code == 0
    assert run_cli("validate", cwd=repo / "devops").code == 0


def test_usage_errors_exit_2() -> None:
    assert run_cli("no-such-command").code == 2
    assert run_cli("validate", "--no-such-flag").code == 2
    bad = run_cli("list", "--state", "sleeping")
    assert bad.code == 2 and "sleeping" in bad.err


def test_internal_error_exits_3_with_a_crash_log(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gitcurator.commands.validate as mod

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(mod, "check_tree", boom)
    result = run_cli("validate", "-C", str(repo))
    assert result.code == 3
    assert "internal error: RuntimeError: kaboom" in result.err
    log = re.search(r"details: (\S+)", result.err)
    assert log and "kaboom" in Path(log.group(1)).read_text()
    Path(log.group(1)).unlink()  # in the session's TMPDIR, which must end empty


def test_version_and_module_entry_point() -> None:
    proc = run_process("--version")
    assert proc.returncode == 0
    assert re.match(r"gitcurator, version \d+\.\d+\.\d+", proc.stdout)


def test_inside_the_git_folder_points_to_the_work_tree(repo: Path) -> None:
    result = run_cli("list", "-C", str(repo / ".git"))
    assert result.code == 1
    assert f"inside the .git folder of {repo.resolve()}" in result.err
    assert f"-C {repo.resolve()}" in result.err

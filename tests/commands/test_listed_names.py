"""One identity rule: every name `list --json` prints is accepted, by that name, by every command
that takes skill names, by the MCP server and by the agents' hooks.

The names are the kinds real public libraries hold and the spec's `name:` rule refuses: an
underscore, a leading hyphen, a dot, upper case, a space.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from support.agents import our_command, run_hook, skill_payload
from support.mcp_client import connect
from support.repos import run_cli, run_process, write_skill

from gitcurator.library import open_repo
from gitcurator.telemetry import ledger

ODD_NAMES = ["zoho_books-automation", "-21risk-automation", "v1.2-notes", "PDF-Tools", "My Skill"]


def _odd_library(root: Path) -> Path:
    """A library of odd names (and one plain one) committed by `init --no-verify`, as a
    person adopting a public library does when its names break the spec's rule."""
    write_skill(root, "pdf-extract")
    for name in ODD_NAMES:
        write_skill(root, f"tools/{name}" if name == "v1.2-notes" else name)
    assert run_cli("init", str(root), "--no-verify", "--quiet").code == 0
    return root


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    return _odd_library(tmp_path / "skills")


def _listed(repo: Path) -> list[str]:
    result = run_cli("list", "--json", "-C", str(repo))
    assert result.code == 0, result
    return [row["name"] for row in json.loads(result.out)]


def _records(repo: Path) -> dict[str, ledger.UsageRecord]:
    with open_repo(repo) as opened:
        return ledger.load(opened.store).records


def test_list_shows_every_odd_name(odd: Path) -> None:
    assert sorted(_listed(odd)) == sorted([*ODD_NAMES, "pdf-extract"])


def test_every_listed_name_goes_through_every_command(odd: Path) -> None:
    names = _listed(odd)
    c = ("-C", str(odd))
    # All at once, as a script feeding `list --json` to track does.
    assert run_cli("track", "--origin", "agent", *c, "--", *names).code == 0
    assert run_cli("record", "use", *c, "--", *names).code == 0
    for name in names:
        for args in (
            ("record", "view", "--", name),
            ("pin", "--", name),
            ("unpin", "--", name),
            ("resolve", "--json", "--", name),
            ("show", "--json", "--", name),
            ("archive", "--", name),
            ("restore", "--", name),
        ):
            result = run_cli(*args[:1], *c, *args[1:])
            assert result.code == 0, (args, result)
        assert json.loads(run_cli("resolve", *c, "--json", "--", name).out)["resolves_to"] == name
    # The agent's own path: `record` as a process takes the fast path (no click).
    for name in names:
        done = run_process("record", "use", "--", name, cwd=odd)
        assert done.returncode == 0, (name, done.stderr)
    assert run_cli("flush", *c).code == 0
    records = _records(odd)
    for name in names:
        record = records[name]
        assert (record.use_count, record.view_count) == (2, 1), name
        assert record.origin is not None and record.origin.value == "agent"
        assert record.archived_at is not None  # archive recorded it: the name keys a record
    assert _listed(odd) == names  # restored, every one, under its own name


@pytest.mark.parametrize("fast", [True, False], ids=["process", "in-process"])
def test_a_leading_hyphen_without_dashes_is_refused_with_how_to_pass_it(
    odd: Path, fast: bool
) -> None:
    args = ("record", "use", "pdf-extract", "-21risk-automation")
    if fast:
        done = run_process(*args, cwd=odd)
        code, err = done.returncode, done.stderr
    else:
        result = run_cli(*args, "-C", str(odd))
        code, err = result.code, result.err
    assert code == 2
    assert "put it after `--`" in err
    assert "`gitcurator record use pdf-extract" in err and " -- -21risk-automation`" in err


@pytest.mark.parametrize("command", ["track", "pin", "show", "resolve", "archive"])
def test_every_naming_command_gives_the_dashes_hint(odd: Path, command: str) -> None:
    extra = ("--origin", "agent") if command == "track" else ()
    result = run_cli(command, "-C", str(odd), *extra, "-21risk-automation")
    assert result.code == 2, result
    assert "-- -21risk-automation`" in result.err


def test_one_unknown_name_among_good_ones_refuses_all_and_names_only_it(odd: Path) -> None:
    # All-or-nothing stays: a typo in a script must not half-record a call. What changed is
    # that no name `list` shows is ever the refused one.
    for args, done_word in (
        (("record", "use"), "recorded"),
        (("track", "--origin", "agent"), "changed"),
    ):
        result = run_cli(*args, "-C", str(odd), "--", "zoho_books-automation", "zoho-books")
        assert result.code == 1, result
        assert f"no skill named zoho-books in this repository; nothing was {done_word}" in (
            result.err
        )
        assert "zoho_books-automation" not in result.err.split(";")[0]
    assert run_cli("flush", "-C", str(odd)).code == 0
    assert _records(odd) == {}


def test_a_path_is_explained_as_a_path(odd: Path) -> None:
    result = run_cli("record", "use", "-C", str(odd), "tools/v1.2-notes")
    assert result.code == 1
    assert "name the skill by its folder alone ('v1.2-notes')" in result.err


def test_the_mcp_server_loads_every_listed_name(odd: Path, tmp_path: Path) -> None:
    names = _listed(odd)

    async def main() -> dict[str, Any]:
        loads: dict[str, Any] = {}
        async with connect(odd, tmp_path / "server.log") as client:
            resources = await client.session.list_resources()
            loads["resources"] = len(resources.resources)
            listed = await client.tool_text("list_skills")
            loads["list"] = listed
            for name in names:
                loads[name] = await client.tool_text("load_skill", name=name)
        return loads

    seen = anyio.run(main)
    assert seen["resources"] == len(names)
    for name in names:
        error, text = seen[name]
        assert not error, (name, text)
        assert f"Steps an agent follows for {name}." in text
        assert name in seen["list"][1]
    assert run_cli("flush", "-C", str(odd)).code == 0
    assert all(_records(odd)[n].use_count == 1 for n in names)


def test_the_claude_code_hook_records_every_listed_name(tmp_path: Path) -> None:
    skills = _odd_library(Path.home() / ".claude" / "skills")
    assert run_cli("connect", "claude-code").code == 0
    command = our_command(Path.home() / ".claude" / "settings.json")
    names = _listed(skills)
    for i, name in enumerate(names):
        done = run_hook(command, json.dumps(skill_payload(name, f"toolu_{i}", tmp_path)))
        assert (done.returncode, done.stdout) == (0, b"")
    log = skills / ".git" / "gitcurator" / "hook.log"
    assert not log.exists() or log.read_text() == ""
    assert run_cli("flush", "-C", str(skills)).code == 0
    records = _records(skills)
    assert {n: records[n].use_count for n in names} == dict.fromkeys(names, 1)

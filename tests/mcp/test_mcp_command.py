"""`gitcurator mcp` as a command: help, README, a folder that is no repository, the SDK import."""

from __future__ import annotations

import sys
from pathlib import Path

from support.repos import run_cli, run_process

README = Path(__file__).parents[2] / "README.md"


def test_the_command_has_help_and_a_readme_section() -> None:
    result = run_cli("mcp", "--help")
    assert result.code == 0
    assert "Serve the live skills to MCP hosts over stdio" in result.out
    text = README.read_text()
    assert "## MCP server" in text and "`mcp`" in text


def test_outside_a_repository_it_says_so_before_serving(tmp_path: Path) -> None:
    done = run_process("mcp", "-C", str(tmp_path), input="")
    assert done.returncode == 1
    assert "is not inside a skills repository" in done.stderr
    assert done.stdout == ""


def test_the_server_module_imports_the_sdk_not_itself() -> None:
    import mcp

    from gitcurator.mcp import server

    assert server.Server.__module__.startswith("mcp.server")
    assert "gitcurator" not in (mcp.__file__ or "")
    assert sys.modules["mcp"] is mcp

"""A command runs without Python's cyclic collector (entry.main turns it off: a short process
keeps its data alive to the end), and the MCP server, which lives on, turns it back on."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

# Each command's dispatch replaced by one that reports whether the collector is on.
PROBE = """
import gc, sys
from gitcurator import entry
seen = []
entry._command = lambda: seen.append(gc.isenabled()) or 0
sys.argv = ["gitcurator", *sys.argv[1:]]
try:
    entry.main()
except SystemExit as exc:
    print(exc.code, seen)
"""


@pytest.mark.parametrize("args", [["list"], ["run", "--dry-run"], ["sync"], ["--help"]])
def test_a_command_runs_with_the_cyclic_collector_off(tmp_path: Path, args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["0", "[False]"], done.stderr


def test_the_mcp_server_turns_the_collector_back_on(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitcurator.mcp import server

    seen: list[bool] = []

    def run(*_: object) -> None:  # where the server would now serve stdin until it closes
        seen.append(gc.isenabled())

    monkeypatch.setattr(server.anyio, "run", run)
    was: Callable[[], None] = gc.enable if gc.isenabled() else gc.disable
    gc.disable()
    try:
        server.serve(repo)
    finally:
        was()
    assert seen == [True]


# A command that leaves a cycle whose finalizer imports, as an unclosed dulwich Protocol's
# does (`import warnings` in its __del__); the second fails while its frame holds the cycle,
# as a fetch that failed holds its Protocol.
CYCLE = """
import sys
from gitcurator import entry
from gitcurator.errors import CuratorError

class Held:
    def __del__(self) -> None:
        import json
        print(json.dumps("finalized"), flush=True)

def command() -> int:
    held = Held()
    held.me = held  # a cycle: only the collector frees it
    if sys.argv[1] == "fails":
        raise CuratorError("cannot fetch from remote origin")
    return 0

entry._command = command
entry.main()
"""


@pytest.mark.parametrize(("how", "code", "said"), [("ends", 0, ""), ("fails", 1, "cannot fetch")])
def test_the_cycles_a_command_left_are_finalized_before_python_shuts_down(
    tmp_path: Path, how: str, code: int, said: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CYCLE, how],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == code, done.stderr
    assert done.stdout == '"finalized"\n'
    assert said in done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr

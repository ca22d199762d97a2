"""Golden outputs: the demo library's pass, listing and report, byte for byte.

The restructure of the package must not change what a user sees. This builds the demo library
at a fixed moment and compares every document a user reads (the demo's text, `run --dry-run
--json`, `list --json`, `status --json`, the pass's REPORT.md and run.json) with files recorded
before the restructure. Temporary paths are masked; nothing else is.

Regenerate (only when a change of behaviour is intended, and say so in the commit) with
`GITCURATOR_GOLDEN_WRITE=1 python -m pytest tests/test_golden.py`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from support.repos import git, run_cli

GOLDEN = Path(__file__).parent / "golden"
NOW = "2026-11-01T12:00:00Z"
RUN = "20261101-120000"


def _mask(text: str, root: Path) -> str:
    text = text.replace(str(root), "<DIR>")
    return re.sub(r"\b[0-9a-f]{40}\b", "<SHA>", text)


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("GITCURATOR_GOLDEN_WRITE") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, name


@pytest.fixture(scope="module")
def demo_library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("golden") / "demo"
    result = run_cli("demo", str(root), "--now", NOW)
    assert result.code == 0, result
    return root, _mask(result.out, root)


def test_the_demo_prints_what_it_printed(demo_library: tuple[Path, str]) -> None:
    _check("demo.txt", demo_library[1])


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("run-dry-run.json", ("run", "--dry-run", "--json")),
        ("list.json", ("list", "--json")),
        ("status.json", ("status", "--json")),
        ("clusters.json", ("clusters", "--json")),
    ],
)
def test_reading_commands_print_what_they_printed(
    demo_library: tuple[Path, str], name: str, args: tuple[str, ...]
) -> None:
    root = demo_library[0]
    result = run_cli(*args, "--now", NOW, "-C", str(root))
    assert result.code == 0, result
    _check(name, _mask(result.out, root))


@pytest.mark.parametrize("name", ["REPORT.md", "run.json"])
def test_the_pass_report_is_what_it_was(demo_library: tuple[Path, str], name: str) -> None:
    root = demo_library[0]
    shown = git("show", f"curator/{RUN}:.curator/runs/{RUN}/{name}", cwd=root).stdout
    _check(f"demo-{name}", _mask(shown, root))


def test_the_pass_commits_are_what_they_were(demo_library: tuple[Path, str]) -> None:
    root = demo_library[0]
    log = git("log", "--format=%s%n%b%n--", f"main..curator/{RUN}", cwd=root).stdout
    _check("demo-log.txt", _mask(log, root))

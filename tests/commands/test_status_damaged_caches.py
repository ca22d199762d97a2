"""Caches under .git/gitcurator/ that were damaged or planted: a FIFO at a cache's name, or a
document nested deeper than the JSON parser recurses. Reading commands answer as without them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.repos import run_cli

from gitcurator import statefiles

CACHES = (
    statefiles.CATALOGUE_CACHE,
    statefiles.USAGE_DELTAS_CACHE,
    statefiles.RECORDS_CACHE,
)


def _warm(repo: Path) -> Path:
    assert run_cli("record", "use", "pdf-extract", "-C", str(repo)).code == 0
    assert run_cli("flush", "-C", str(repo)).code == 0
    assert run_cli("report", "--html", "-C", str(repo)).code == 0
    state = repo / ".git" / statefiles.STATE_DIR
    assert all((state / name).is_file() for name in CACHES)
    return state


def _gitcurator(*args: str) -> subprocess.CompletedProcess[str]:
    # A real process with a short bound: a hang is the failure this file looks for.
    return subprocess.run(
        [sys.executable, "-m", "gitcurator", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("damage", ["fifo", "deep"])
def test_a_fifo_or_a_deeply_nested_cache_is_read_as_no_cache(repo: Path, damage: str) -> None:
    # A FIFO planted at a cache's name hung status and report --html for ever (open waits for
    # a writer); "[" * 100,000 was a RecursionError, exit 3.
    state = _warm(repo)
    for name in CACHES:
        (state / name).unlink()
        if damage == "fifo":
            os.mkfifo(state / name)
        else:
            (state / name).write_text("[" * 100_000)
    status = _gitcurator("status", "--json", "-C", str(repo))
    assert status.returncode == 0, status.stderr
    page = _gitcurator("report", "--html", "--json", "-C", str(repo))
    assert page.returncode == 0, page.stderr
    assert '"skills": 3' in page.stdout

"""folder_tree (validate PATH outside a repository) takes files and symlinks, as git would:
a FIFO in the folder must not block validation for good."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.repos import write_skill

from gitcurator.store.worktree import folder_tree


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_left_out_and_validate_ends(tmp_path: Path) -> None:
    write_skill(tmp_path, "csv-clean")
    os.mkfifo(tmp_path / "csv-clean/pipe")
    assert folder_tree(tmp_path / "csv-clean").paths == ("csv-clean/SKILL.md",)
    done = subprocess.run(
        [sys.executable, "-m", "gitcurator", "validate", str(tmp_path / "csv-clean")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert done.returncode == 0, done.stderr
    assert "1 skill checked" in done.stdout

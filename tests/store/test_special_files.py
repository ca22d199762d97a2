"""A FIFO, as a tool's named pipe would sit in a library: git adds files and links only, so
`init` and `commit` leave it out (reading it waited for a writer for good), and a file that
turns into one between the walk and its read is named."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from support.repos import git, run_process, write_skill

from gitcurator.errors import StoreError
from gitcurator.store import staging

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def test_init_leaves_a_fifo_and_a_socket_out_as_git_add_does(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    write_skill(library, "csv-clean")
    os.mkfifo(library / "csv-clean" / "pipe")
    os.mkfifo(library / "queue")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(library / "csv-clean" / "control.sock"))
        done = run_process("init", str(library), "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    committed = git("ls-tree", "-r", "--name-only", "HEAD", cwd=library).stdout.split()
    assert "csv-clean/SKILL.md" in committed
    assert not {"queue", "csv-clean/pipe", "csv-clean/control.sock"} & set(committed)
    # git agrees nothing is left to add.
    assert git("status", "--porcelain", cwd=library).stdout == ""
    status = run_process("status", "--json", "-C", str(library), cwd=tmp_path)
    assert status.returncode == 0, status.stderr


def test_a_file_that_became_a_fifo_after_the_walk_is_named(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(StoreError, match=r"pipe: it is not a file or a link"):
        staging._stage_file(str(tmp_path / "pipe"), "pipe", {})

"""Builders for upstream tests: a source repository of skills edited commit by commit with real
git, a library that adds from it, and a `git daemon` serving sources on 127.0.0.1."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from support.repos import git, run_cli, write_skill

SKILL_BODY = """\
---
name: {name}
description: Use when a task needs {name}.
---

# {name}

{lines}
"""


def skill_text(name: str, lines: list[str]) -> str:
    """A valid SKILL.md for `name` whose body is `lines`."""
    return SKILL_BODY.format(name=name, lines="\n".join(lines))


def default_lines(name: str) -> list[str]:
    """Ten distinct body lines, so edits of different lines merge cleanly."""
    return [f"Step {i} of {name}." for i in range(1, 11)]


def make_source(
    tmp_path: Path, names: tuple[str, ...] = ("pdf", "xlsx"), sub: str = "skills"
) -> Path:
    """A work-tree repository (the upstream) holding skills under `sub`/, one commit."""
    source = tmp_path / "upstream"
    source.mkdir(parents=True)
    git("init", "--quiet", "-b", "main", cwd=source)
    for name in names:
        write_skill(source / sub, name, body=skill_text(name, default_lines(name)))
    commit_all(source, "first skills")
    return source


def commit_all(repo: Path, message: str) -> str:
    """`git add -A` and commit; the new commit id."""
    git("add", "-A", cwd=repo)
    git("commit", "--quiet", "--allow-empty", "-m", message, cwd=repo)
    return head(repo)


def head(repo: Path, rev: str = "HEAD") -> str:
    """A commit id, by real git."""
    return git("rev-parse", rev, cwd=repo).stdout.strip()


def edit_line(path: Path, old: str, new: str) -> None:
    """Replace one line's text in a file."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def make_library(tmp_path: Path) -> Path:
    """A skills repository with one skill of its own (`notes`)."""
    lib = tmp_path / "library"
    write_skill(lib, "notes")
    assert run_cli("init", str(lib), "--quiet").code == 0
    return lib


def fsck(repo: Path) -> None:
    """`git fsck --strict` finds nothing wrong."""
    result = git("fsck", "--strict", "--no-dangling", cwd=repo, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def git_daemon(served: Path) -> Iterator[str]:
    """A real read-only `git daemon` serving the repositories under `served`: its base URL."""
    port = _free_port()
    proc = subprocess.Popen(
        [
            "git",
            "daemon",
            "--export-all",
            "--informative-errors",
            "--reuseaddr",
            f"--base-path={served}",
            f"--port={port}",
            "--listen=127.0.0.1",
            str(served),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, "git daemon exited"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                assert time.monotonic() < deadline, "git daemon did not listen"
                time.sleep(0.02)
        yield f"git://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)

"""Helpers for tests: write skills, run the CLI in-process or as a process, call real git."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from gitcurator.cli import main

# When the `dated_repo` fixture's library was committed: its skills' created_at.
EPOCH = "2026-01-01T00:00:00Z"

GOOD_SKILL = """\
---
name: {name}
description: {description}
---

# {name}

Steps an agent follows for {name}.
"""


def write_skill(
    root: Path, folder: str, name: str | None = None, description: str = "", body: str | None = None
) -> Path:
    """Write <root>/<folder>/SKILL.md; `name` defaults to the folder's last part."""
    name = name or folder.rsplit("/", 1)[-1]
    text = (
        body
        if body is not None
        else GOOD_SKILL.format(
            name=name, description=description or f"Use when a task needs {name}."
        )
    )
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


class CliResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, out={self.out!r}, err={self.err!r})"


def run_cli(*args: str, cwd: Path | None = None) -> CliResult:
    """Run gitcurator in this process (fast) and capture its exit code and output."""
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    try:
        if cwd:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(old)
    return CliResult(code, out.getvalue(), err.getvalue())


def cli_json(*args: str) -> Any:
    """The JSON document a command prints with --json (it must succeed)."""
    result = run_cli(*args, "--json")
    assert result.code == 0, result
    return json.loads(result.out)


def last_trailers(repo: Path) -> list[str]:
    """The trailer lines of the newest commit on HEAD."""
    return git("log", "-1", "--format=%(trailers:only)", cwd=repo).stdout.split("\n")


def run_process(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run gitcurator as a real process, the way an agent or a git hook does."""
    return subprocess.run(
        [sys.executable, "-m", "gitcurator", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        input=input,
        timeout=120,
    )


def git(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """The real git binary, to prove interoperability."""
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=check)


def note_key(repo: Path, name: str) -> str:
    """The object a skill's record is the note of, as plain git computes it."""
    return subprocess.run(
        ["git", "hash-object", "--stdin"],
        input=f"gitcurator skill {name}\n",
        capture_output=True,
        text=True,
        cwd=repo,
        check=True,
    ).stdout.strip()


def corrupt_note(repo: Path, name: str, text: str) -> str:
    """Overwrite a skill's record with `text` through plain git notes; returns the key id."""
    key = note_key(repo, name)
    git("notes", "--ref=gitcurator", "add", "-f", "-m", text, key, cwd=repo)
    return key


def mktree(repo: Path, lines: list[str]) -> str:
    """The id of the tree `git mktree` writes from `ls-tree` lines (`mode kind id\\tname`)."""
    done = subprocess.run(
        ["git", "mktree"],
        cwd=repo,
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()

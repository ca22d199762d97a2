"""Fixtures of the command tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import EPOCH, git, run_cli


@pytest.fixture
def dated_repo(library: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample library committed at EPOCH, so created_at is exact."""
    monkeypatch.setenv("GIT_AUTHOR_DATE", EPOCH)
    monkeypatch.setenv("GIT_COMMITTER_DATE", EPOCH)
    git("init", "-q", "-b", "main", cwd=library)
    git("add", "-A", cwd=library)
    git("commit", "-qm", "skills", cwd=library)
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    assert run_cli("init", str(library), "-q").code == 0
    return library

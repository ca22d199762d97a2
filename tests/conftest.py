"""Shared fixtures: an isolated HOME and git identity, and throwaway skill libraries."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.repos import CliResult, run_cli, write_skill


@pytest.fixture(scope="session", autouse=True)
def private_tmpdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The suite leaves nothing in the real /tmp: every temporary file (tempfile, `demo`
    without DIR, crash logs, child processes through TMPDIR) goes to a folder of the pytest
    base temp, which must be empty again when the session ends."""
    folder = tmp_path_factory.getbasetemp() / "tmpdir"
    folder.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        for var in ("TMPDIR", "TEMP", "TMP"):
            mp.setenv(var, str(folder))
        mp.setattr(tempfile, "tempdir", None)  # gettempdir() caches its first answer
        yield folder
    left = sorted(os.listdir(folder))
    assert not left, f"tests left temporary files behind (outside tmp_path): {left}"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees the developer's HOME, git config or identity."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    for var, value in {
        "GIT_AUTHOR_NAME": "Test Author",
        "GIT_AUTHOR_EMAIL": "author@example.com",
        "GIT_COMMITTER_NAME": "Test Author",
        "GIT_COMMITTER_EMAIL": "author@example.com",
    }.items():
        monkeypatch.setenv(var, value)
    # Catalogue figures by the documented estimate, whether or not tiktoken's encoding happens
    # to be cached on this machine (test_token_counter clears this to test the choice).
    monkeypatch.setenv("GITCURATOR_TOKENIZER", "estimate")
    for var in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GITCURATOR_ORIGIN"):
        monkeypatch.delenv(var, raising=False)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A folder (not yet a repository) with a few valid skills, flat and in categories."""
    root = tmp_path / "skills"
    write_skill(root, "pdf-extract")
    write_skill(root, "devops/docker-build")
    write_skill(root, "devops/k8s/helm-deploy")
    return root


@pytest.fixture
def repo(library: Path) -> Path:
    """The `library` fixture after `gitcurator init`."""
    assert run_cli("init", str(library), "--quiet").code == 0
    return library


@pytest.fixture
def agent_repo(repo: Path) -> Path:
    """The `repo` fixture with pdf-extract handed to the curator (so a pass has work)."""
    assert run_cli("track", "pdf-extract", "--origin", "agent", "-C", str(repo)).code == 0
    return repo


@pytest.fixture
def cli() -> Callable[..., CliResult]:
    return run_cli

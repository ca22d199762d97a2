"""A repository whose object store lacks a SKILL.md blob (a partial clone, a fetch that did
not bring it, a damaged store): every command says which object, exit 1, never exit 3."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.missing_objects import drop_blob
from support.repos import git, run_cli, write_skill


@pytest.fixture
def lacking(tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "lib"
    write_skill(root, "alpha-one", description="Does alpha things for the tests.")
    write_skill(root, "gamma-three", description="Does gamma things; see `alpha-one`.")
    assert run_cli("init", str(root)).code == 0
    return root, drop_blob(root, "gamma-three/SKILL.md")


@pytest.mark.parametrize(
    "command",
    [("run", "--dry-run"), ("status",), ("refs", "alpha-one"), ("report", "--html")],
)
def test_a_missing_blob_is_named_with_exit_1(
    lacking: tuple[Path, str], command: tuple[str, ...]
) -> None:
    root, sha = lacking
    before = git("rev-parse", "HEAD", cwd=root).stdout
    result = run_cli(*command, "-C", str(root))
    assert result.code in (0, 1), result  # answering anyway is fine too
    assert "internal error" not in result.err
    if result.code == 1:
        assert f"object {sha}" in result.err
    assert git("rev-parse", "HEAD", cwd=root).stdout == before

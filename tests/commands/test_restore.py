"""`gitcurator restore NAME`: an archived skill brought back to its category folder."""

from __future__ import annotations

from pathlib import Path

from support.passes import assert_clean_and_sound, snapshot
from support.repos import git, run_cli, write_skill


def test_restore_refuses_a_live_name_and_an_unknown_one(repo: Path) -> None:
    r = str(repo)
    missing = run_cli("restore", "pdf-extract", "-C", r)
    assert missing.code == 1 and "no archived skill named pdf-extract" in missing.err
    assert run_cli("archive", "pdf-extract", "-C", r).code == 0
    write_skill(repo, "pdf-extract")  # a new skill of the same name
    assert run_cli("commit", "-m", "a new pdf-extract", "-C", r).code == 0
    before = snapshot(repo)
    taken = run_cli("restore", "pdf-extract", "-C", r)
    assert taken.code == 1 and "a live skill named pdf-extract exists" in taken.err
    assert snapshot(repo) == before


def test_moves_inside_a_skills_dir_keep_the_category(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_skill(root / "lib", "devops/docker-build")
    (root / ".gitcurator.yaml").write_text("skills_dir: lib\n")
    assert run_cli("init", str(root), "--quiet").code == 0
    r = str(root)
    assert run_cli("archive", "docker-build", "-C", r).code == 0
    assert (root / "lib" / ".archive" / "devops" / "docker-build" / "SKILL.md").exists()
    (root / "lib" / ".archive" / "devops" / "docker-build" / "SKILL.md").write_text("dirty\n")
    dirty = run_cli("restore", "docker-build", "-C", r)
    assert dirty.code == 1 and "lib/.archive/devops/docker-build/SKILL.md" in dirty.err
    git("checkout", "--", ".", cwd=root)
    assert run_cli("restore", "docker-build", "-C", r).code == 0
    assert (root / "lib" / "devops" / "docker-build" / "SKILL.md").exists()
    assert_clean_and_sound(root)


def test_restore_help_teaches_with_an_example() -> None:
    said = run_cli("restore", "--help")
    assert said.code == 0 and "gitcurator restore pdf-forms" in said.out
    assert "search QUERY --archived" in said.out

"""Where nested_repositories looks: every folder that could hold a skill, and no deeper into
dependency trees (where find_skills takes no skill) than it must."""

from __future__ import annotations

from pathlib import Path

from support.repos import git, write_skill

from gitcurator.library import open_store


def _clone_at(folder: Path) -> None:
    write_skill(folder.parent, folder.name)
    git("init", "-q", cwd=folder)


def test_a_library_whose_root_holds_a_skill_md_still_reports_a_nested_clone(
    tmp_path: Path,
) -> None:
    root = tmp_path / "lib"
    write_skill(tmp_path, "lib")  # a one-skill repository keeps SKILL.md at its top
    git("init", "-q", cwd=root)
    _clone_at(root / "tools/cloned")
    with open_store(root) as store:
        assert store.nested_repositories() == ["tools/cloned"]


def test_dependency_trees_and_virtual_environments_are_not_walked(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    write_skill(root, "plain")
    git("init", "-q", cwd=root)
    _clone_at(root / "node_modules/pkg")
    (root / ".venv").mkdir()
    (root / ".venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    _clone_at(root / ".venv/lib/src/dep")
    _clone_at(root / "cloned")
    with open_store(root) as store:
        assert store.nested_repositories() == ["cloned"]

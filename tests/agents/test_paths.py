"""paths.py: which skill a file an agent touched belongs to."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import write_skill

from gitcurator.agents.paths import Library


@pytest.fixture
def library(tmp_path: Path) -> Library:
    root = tmp_path / "skills"
    write_skill(root, "pdf-extract")
    write_skill(root, "devops/docker-build")
    (root / "pdf-extract" / "scripts").mkdir()
    return Library(root)


@pytest.mark.parametrize(
    ("path", "cwd", "expected"),
    [
        ("{root}/pdf-extract/SKILL.md", None, ("pdf-extract", True)),
        ("{root}/devops/docker-build/SKILL.md", None, ("docker-build", True)),
        ("{root}/pdf-extract/scripts/run.py", None, ("pdf-extract", False)),
        ("pdf-extract/SKILL.md", "{root}", ("pdf-extract", True)),
        ("../skills/new-one/SKILL.md", "{root}/devops", ("new-one", True)),
        ("{root}/.archive/old/SKILL.md", None, None),
        ("{root}/.git/HEAD", None, None),
        ("{root}/README.md", None, None),
        ("{root}/../elsewhere/x/SKILL.md", None, None),
        ("relative/SKILL.md", None, None),
        ("", None, None),
    ],
)
def test_skill_of(library: Library, path: str, cwd: str | None, expected: object) -> None:
    root = str(library.given)
    assert library.skill_of(path.format(root=root), cwd and cwd.format(root=root)) == expected


def test_a_symlinked_library_answers_for_both_paths(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "skills"
    write_skill(real, "pdf-extract")
    link = tmp_path / "link"
    link.symlink_to(real)
    library = Library(link)
    assert library.skill_of(str(real / "pdf-extract" / "SKILL.md")) == ("pdf-extract", True)
    assert library.skill_of(str(link / "pdf-extract" / "SKILL.md")) == ("pdf-extract", True)


def test_skill_md_paths_in_shell_commands(library: Library) -> None:
    root = library.given
    command = (
        f"cat '{root}/pdf-extract/SKILL.md' && sed -n 1,80p {root}/devops/docker-build/SKILL.md"
        f" | head; cat {root}/pdf-extract/SKILL.md; ls {root}"
    )
    assert library.skills_read_by(command) == ["pdf-extract", "docker-build"]
    assert library.skills_read_by("cat devops/docker-build/SKILL.md", str(root)) == ["docker-build"]
    assert library.skills_read_by("cat /tmp/x/SKILL.md") == []

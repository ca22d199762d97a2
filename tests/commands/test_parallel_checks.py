"""commands/parallel_checks: init's checks spread over worker processes say what one process
says, and hand over nothing that depends on more than a skill's own files."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from support.repos import git, run_cli, write_skill

from gitcurator.commands import init as init_command
from gitcurator.commands import parallel_checks
from gitcurator.skills.check_memo import SkillMemo
from gitcurator.skills.document import SkillLocation
from gitcurator.skills.files import FileTree


def _library(root: Path) -> Path:
    write_skill(root, "pdf-extract")
    write_skill(root, "twin-a", name="twin")
    write_skill(root, "twin-b", name="twin")  # a duplicate name: a finding across skills
    write_skill(root, "broken", body="---\nname: broken\n---\n# no description\n")
    linked = write_skill(root, "linked")
    (linked.parent / "guide.md").symlink_to("../pdf-extract/SKILL.md")
    write_skill(
        root,
        "outward",
        body="---\nname: outward\ndescription: Use when x.\n---\n"
        "See [it](../pdf-extract/SKILL.md) and [gone](../nowhere/x.md).\n",
    )
    return root


@pytest.mark.parametrize("verify", [True, False])
def test_init_in_workers_says_what_one_process_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, verify: bool
) -> None:
    one = _library(tmp_path / "one")
    many = tmp_path / "many"
    shutil.copytree(one, many, symlinks=True)
    flag = () if verify else ("--no-verify",)
    monkeypatch.setattr(parallel_checks, "_MIN_SKILLS", 10**9)
    alone = run_cli("init", str(one), *flag)
    monkeypatch.setattr(parallel_checks, "_MIN_SKILLS", 0)
    monkeypatch.setattr(parallel_checks.os, "cpu_count", lambda: 2)
    handed: list[int] = []
    real_precheck = init_command.precheck

    def counted(
        tree: FileTree, skills: Sequence[SkillLocation], strict: bool, memo: SkillMemo
    ) -> dict[str, str]:
        names = real_precheck(tree, skills, strict, memo)
        handed.append(len(memo.known))
        return names

    monkeypatch.setattr(init_command, "precheck", counted)
    spread = run_cli("init", str(many), *flag)
    assert (spread.code, spread.err.replace(str(many), "@")) == (
        alone.code,
        alone.err.replace(str(one), "@"),
    )
    assert spread.out.replace(str(many), "@") == alone.out.replace(str(one), "@")
    if verify:
        assert "Skill name 'twin'" in alone.err and "broken/SKILL.md" in alone.err
    else:
        assert "4 errors, 2 warnings" in alone.out
        assert git("status", "--porcelain", cwd=many).stdout == ""
        # The names cache the workers' parsed names seeded holds what one process's holds.
        names = [(r / ".git" / "gitcurator" / "names.tsv").read_text() for r in (one, many)]
        assert names[0].splitlines()[1:] == names[1].splitlines()[1:]
    assert handed and handed[0] >= 4, "the workers handed nothing over"

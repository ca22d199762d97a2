"""A skill the change makes appear without touching its files is new to the library: checked
whole, not waved through as untouched."""

from __future__ import annotations

from collections.abc import Mapping

from support.file_trees import file_tree, skill_md

from gitcurator.skills.check_change import check_change

BAD = "---\nname: sub\n---\n\n# sub\n"  # no description: an error


def _errors(
    before: Mapping[str, str],
    after: Mapping[str, str],
    include: tuple[str, ...] = (),
    only: list[str] | None = None,
    before_layout: tuple[str, tuple[str, ...]] | None = None,
) -> list[str]:
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    result = check_change(
        file_tree(before),
        file_tree(after),
        changed,
        include=include,
        only=only,
        before_layout=before_layout,
    )
    return [f"{f.path} {f.rule}" for f in result.findings if f.level == "error"]


def test_removing_a_skill_md_above_a_support_skill_md_checks_the_skill_it_uncovers() -> None:
    before = {"outer/SKILL.md": skill_md("outer"), "outer/sub/SKILL.md": BAD}
    after = {"outer/sub/SKILL.md": BAD}
    assert _errors(before, after) == ["outer/sub/SKILL.md description"]
    assert _errors(before, after, only=[]) == ["outer/sub/SKILL.md description"]


def test_a_config_change_including_a_dot_folder_checks_the_skills_it_brings_in() -> None:
    tree = {"a/SKILL.md": skill_md("a"), ".system/sub/SKILL.md": BAD, ".gitcurator.yaml": ""}
    new = {**tree, ".gitcurator.yaml": "include: [.system]\n"}
    found = _errors(tree, new, include=(".system",), before_layout=("", ()))
    assert found == [".system/sub/SKILL.md description"]
    # Without the config change nothing appears: an old bad skill stays the past's business.
    assert _errors(tree, {**tree, "a/x.md": "x\n"}, include=(".system",)) == []

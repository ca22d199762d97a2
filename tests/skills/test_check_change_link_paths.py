"""A link of an untouched skill broken by a removal on the way to its target (a symlinked
folder outside the skills, or the symlink itself) is the change's to answer for."""

from __future__ import annotations

from collections.abc import Mapping

from support.file_trees import file_tree, skill_md

from gitcurator.skills.check_change import check_change

BEFORE: dict[str, str | tuple[str, str]] = {
    "pdf-extract/SKILL.md": skill_md("pdf-extract", "See [the guide](../shared/guide.md).\n"),
    "shared": ("->", "docs"),  # a symlinked folder at the top, outside every skill
    "docs/guide.md": "# Guide\n",
}


def _errors(after: Mapping[str, str | tuple[str, str]]) -> list[str]:
    changed = {p for p in BEFORE.keys() | after.keys() if BEFORE.get(p) != after.get(p)}
    result = check_change(file_tree(BEFORE), file_tree(after), changed)
    return [f"{f.path} {f.rule}" for f in result.findings if f.level == "error"]


def test_removing_the_file_a_symlinked_folder_leads_to_breaks_the_link() -> None:
    after = {p: v for p, v in BEFORE.items() if p != "docs/guide.md"}
    assert _errors(after) == ["pdf-extract/SKILL.md broken-link"]


def test_removing_the_symlinked_folder_itself_breaks_the_link() -> None:
    after = {p: v for p, v in BEFORE.items() if p != "shared"}
    assert _errors(after) == ["pdf-extract/SKILL.md broken-link"]


def test_an_unrelated_removal_reports_nothing() -> None:
    assert _errors({**BEFORE, "docs/other.md": "x\n"}) == []

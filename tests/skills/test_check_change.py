"""What a change is answerable for: the skills it adds or edits, the duplicate names and the
links of untouched skills it breaks; never the old faults of skills it leaves alone."""

from __future__ import annotations

from support.file_trees import file_tree, skill_md

from gitcurator.skills.check_change import changed_skills, check_change
from gitcurator.skills.document import find_skills

OLD_BAD = "---\nname: broken\n---\n\n# broken\n"  # no description: an error
LINK = "See [the guide](../docker-build/references/guide.md).\n"
BASE = {
    "broken/SKILL.md": OLD_BAD,
    "pdf-extract/SKILL.md": skill_md("pdf-extract", LINK),
    "docker-build/SKILL.md": skill_md("docker-build"),
    "docker-build/references/guide.md": "# Guide\n",
    "README.md": "the library\n",
}


def _check(after: dict[str, str | tuple[str, str]], only: list[str] | None = None) -> list[str]:
    changed = {p for p in BASE.keys() | after.keys() if BASE.get(p) != after.get(p)}
    result = check_change(file_tree(BASE), file_tree(after), changed, only=only)
    return [f"{f.path} {f.rule}" for f in result.findings if f.level == "error"]


def test_no_change_reports_nothing_even_with_an_old_bad_skill() -> None:
    assert _check(dict(BASE)) == []


def test_a_new_good_skill_beside_an_old_bad_one_passes() -> None:
    assert _check({**BASE, "csv-clean/SKILL.md": skill_md("csv-clean")}) == []


def test_a_new_bad_skill_is_reported_and_only_it() -> None:
    found = _check({**BASE, "csv-clean/SKILL.md": OLD_BAD.replace("broken", "csv-clean")})
    assert found and all(f.startswith("csv-clean/") for f in found)


def test_an_edit_of_the_old_bad_skill_makes_it_answer_for_itself() -> None:
    found = _check({**BASE, "broken/SKILL.md": OLD_BAD + "more words\n"})
    assert found and all(f.startswith("broken/") for f in found)


def test_renaming_into_a_duplicate_name_is_reported_on_the_renamed_skill() -> None:
    after = {p: v for p, v in BASE.items() if not p.startswith("docker-build/")}
    after["tools/pdf-extract/SKILL.md"] = skill_md("pdf-extract")
    after["tools/pdf-extract/references/guide.md"] = "# Guide\n"
    found = _check(after)
    assert "tools/pdf-extract/SKILL.md duplicate-name" in found
    assert "pdf-extract/SKILL.md broken-link" in found  # the guide moved away as well


def test_removing_a_file_an_untouched_skill_links_to_is_reported_on_that_skill() -> None:
    after = {p: v for p, v in BASE.items() if p != "docker-build/references/guide.md"}
    assert _check(after) == ["pdf-extract/SKILL.md broken-link"]


def test_a_link_broken_before_the_change_is_not_the_changes_doing() -> None:
    base_broken = {p: v for p, v in BASE.items() if p != "docker-build/references/guide.md"}
    after = {**base_broken, "docker-build/notes.md": "x\n"}
    changed = {"docker-build/notes.md", "README.md"}
    result = check_change(file_tree(base_broken), file_tree(after), changed)
    assert [f for f in result.findings if f.level == "error"] == []


def test_a_symlink_of_an_untouched_skill_left_dangling_is_reported() -> None:
    before = {**BASE, "pdf-extract/guide.md": ("->", "../docker-build/references/guide.md")}
    after = {p: v for p, v in before.items() if p != "docker-build/references/guide.md"}
    changed = {"docker-build/references/guide.md"}
    result = check_change(file_tree(before), file_tree(after), changed)
    assert ("pdf-extract/guide.md", "symlink") in [(f.path, f.rule) for f in result.findings]


def test_only_picks_the_skills_checked_whole_and_removals_still_count() -> None:
    after = {p: v for p, v in BASE.items() if p != "docker-build/references/guide.md"}
    after["csv-clean/SKILL.md"] = skill_md("csv-clean")
    assert _check(after, only=["csv-clean/SKILL.md"]) == ["pdf-extract/SKILL.md broken-link"]
    assert "broken/SKILL.md description" in _check(after, only=["broken"])


def test_changed_skills_are_the_ones_holding_a_changed_path() -> None:
    live = find_skills(BASE)
    found = changed_skills(live, ["docker-build/references/guide.md", "README.md", "gone/x"])
    assert [s.folder for s in found] == ["docker-build"]

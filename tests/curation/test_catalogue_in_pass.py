"""The skill catalogue a pass reports: live skills' names and descriptions before the pass
and in the tree it leaves (archives and umbrellas), counted by the counter it is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.plans import kept_body, pass_inputs, sibling_library, skill_md
from support.repos import git, run_cli, write_skill
from support.scripted_model import ScriptedModel, plan_reply, umbrella

from gitcurator.curation.pass_catalogue import tree_after, with_catalogue
from gitcurator.curation.pass_plan import plan_pass
from gitcurator.lifecycle.catalogue_cost import catalogue_line, change_text, estimate_tokens

PDF = ("pdf-extract-images", "pdf-extract-tables")


def _line(name: str) -> str:
    return catalogue_line(name, f"Use when a task needs {name}.")


def test_an_archived_skill_leaves_the_catalogue_after_the_pass() -> None:
    files, rows = sibling_library("pdf-extract-tables", idle=("old-notes",))
    plan = with_catalogue(plan_pass(pass_inputs(files, rows)))
    assert plan.catalogue is not None
    before, after = plan.catalogue.before, plan.catalogue.after
    assert (before.skills, after.skills) == (2, 1)
    lines = "\n".join(_line(n) for n in ("old-notes", "pdf-extract-tables"))
    assert before.tokens == estimate_tokens(lines)
    assert after.tokens == estimate_tokens(_line("pdf-extract-tables"))
    assert before.tokenizer == after.tokenizer == "estimate"


def test_an_umbrella_replaces_what_it_absorbs_with_its_own_name_and_description() -> None:
    files, rows = sibling_library(*PDF, "csv-clean")
    model = ScriptedModel(plan_reply(umbrella("pdf-extraction", list(PDF), kept_body(files, PDF))))
    seen: list[str] = []

    def count(text: str) -> int:
        seen.append(text)
        return len(text.splitlines())

    plan = with_catalogue(plan_pass(pass_inputs(files, rows), model), count, "lines")
    assert plan.folds, plan.refused
    assert plan.catalogue is not None
    assert plan.catalogue.as_doc() == {
        "before": {"skills": 3, "tokens": 3, "tokenizer": "lines"},
        "after": {"skills": 2, "tokens": 2, "tokenizer": "lines"},
    }
    assert seen[1] == "\n".join(
        [_line("csv-clean"), catalogue_line("pdf-extraction", "Use for pdf-extraction tasks.")]
    )
    assert "pdf-extraction/SKILL.md" in tree_after(plan)


def test_the_frontmatter_name_is_listed_and_an_unreadable_skill_counts_by_its_folder() -> None:
    files, rows = sibling_library("pdf-extract-tables")
    files["pdf-extract-tables/SKILL.md"] = skill_md("pdf-tables", description="Tables.")
    files["broken/SKILL.md"] = b"---\nname: [unclosed\n---\n"
    seen: list[str] = []
    with_catalogue(plan_pass(pass_inputs(files, rows)), lambda t: seen.append(t) or 1, "x")
    assert seen[0] == "- broken: \n- pdf-tables: Tables."


@pytest.mark.parametrize(
    ("before", "after", "text"),
    [
        ((141, 5230), (96, 3410), "141 skills, 5,230 tokens → 96 skills, 3,410 tokens (−35%)"),
        ((2, 10), (3, 12), "2 skills, 10 tokens → 3 skills, 12 tokens (+20%)"),
        ((0, 0), (1, 1), "0 skills, 0 tokens → 1 skill, 1 token"),
        ((5, 50), (5, 50), "5 skills, 50 tokens (estimate), unchanged"),
    ],
)
def test_the_change_in_words(before: tuple[int, int], after: tuple[int, int], text: str) -> None:
    def cost(skills: int, tokens: int) -> dict[str, object]:
        return {"skills": skills, "tokens": tokens, "tokenizer": "estimate"}

    shown = change_text({"before": cost(*before), "after": cost(*after)})
    assert shown == text if "unchanged" in text else shown == f"{text} (estimate)"


@pytest.fixture
def idle_repo(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    for name in ("pdf-extract", "csv-clean", "old-notes"):
        write_skill(root, name, description=f"Use when a task needs {name}.")
    assert run_cli("init", str(root), "--quiet").code == 0
    for name in ("pdf-extract", "csv-clean", "old-notes"):
        assert run_cli("track", name, "--origin", "agent", "-C", str(root)).code == 0
    assert run_cli("record", "use", "pdf-extract", "csv-clean", "-C", str(root)).code == 0
    return root


LATER = "2099-01-01T00:00:00Z"


def test_run_json_report_text_and_dry_run_json_carry_the_catalogue(idle_repo: Path) -> None:
    dry = run_cli("run", "--dry-run", "--json", "--now", LATER, "-C", str(idle_repo))
    assert dry.code == 0, dry
    catalogue = json.loads(dry.out)["catalogue"]
    assert catalogue["before"]["skills"] == 3 and catalogue["after"]["skills"] == 0
    assert set(catalogue["before"]) == {"skills", "tokens", "tokenizer"}
    ran = run_cli("run", "--now", LATER, "-C", str(idle_repo))
    assert ran.code == 0, ran
    assert f"  skill catalogue: {change_text(catalogue)}" in ran.out.splitlines()
    run_id = json.loads(dry.out)["run_id"]
    shown = git("show", f"curator/{run_id}:.curator/runs/{run_id}/run.json", cwd=idle_repo)
    assert json.loads(shown.stdout)["catalogue"] == catalogue
    report = git("show", f"curator/{run_id}:.curator/runs/{run_id}/REPORT.md", cwd=idle_repo)
    assert report.stdout.splitlines()[2] == f"Skill catalogue: {change_text(catalogue)}"


def test_status_shows_the_catalogue_of_the_live_skills(idle_repo: Path) -> None:
    shown = run_cli("status", "--json", "-C", str(idle_repo))
    assert shown.code == 0, shown
    lines = "\n".join(_line(n) for n in ("csv-clean", "old-notes", "pdf-extract"))
    assert json.loads(shown.out)["catalogue"] == {
        "skills": 3,
        "tokens": estimate_tokens(lines),
        "tokenizer": "estimate",
    }
    text = run_cli("status", "-C", str(idle_repo)).out
    assert "skill catalogue (live skills' names and descriptions): 3 skills" in text

"""A pass in words: the text of `run`, its error line, its progress lines."""

from __future__ import annotations

from support.plans import RUN, pass_inputs, sibling_library
from support.scripted_model import ScriptedModel

from gitcurator.curation.pass_plan import PassPlan, plan_pass
from gitcurator.curation.pass_report import run_document
from gitcurator.curation.pass_text import asked_line, asking_line, failure_note, pass_text
from gitcurator.umbrella.clusters import Cluster


def _text(plan: PassPlan, branch: str | None, dry_run: bool) -> str:
    return pass_text(plan, run_document(plan), branch, dry_run=dry_run)


def test_nothing_to_do_says_when_and_how_many_were_left_alone() -> None:
    plan = plan_pass(pass_inputs(*sibling_library("pdf-extract-tables")))
    assert _text(plan, None, False) == (
        "nothing to do at 2026-03-01T00:00:00Z: no skill is due to change (0 skills left alone)"
    )


def test_a_dry_run_says_what_would_happen_and_that_nothing_was_written() -> None:
    plan = plan_pass(pass_inputs(*sibling_library("pdf-extract-tables", idle=("old-notes",))))
    lines = _text(plan, None, True).splitlines()
    assert lines[0] == f"dry run: pass {RUN} at 2026-03-01T00:00:00Z"
    assert lines[1].startswith("  active -> archived: old-notes (idle 151 days")
    assert lines[-1] == "nothing was written"


def test_a_real_run_says_where_to_review_it() -> None:
    plan = plan_pass(pass_inputs(*sibling_library("pdf-extract-tables", idle=("old-notes",))))
    last = _text(plan, f"curator/{RUN}", False).splitlines()[-1]
    assert last == (
        f"branch curator/{RUN} holds the pass; review it with `gitcurator review {RUN}` "
        f"(or `git log --stat main..curator/{RUN}`), then `gitcurator merge {RUN}` "
        "(will change the default branch only then)"
    )


def test_the_model_line_and_the_failure_note_of_an_umbrella_step_that_got_nothing() -> None:
    names = ("pdf-extract-images", "pdf-extract-tables")
    plan = plan_pass(pass_inputs(*sibling_library(*names)), ScriptedModel("not a plan"))
    doc = run_document(plan)
    text = pass_text(plan, doc, None, dry_run=True)
    assert "  refused: cluster pdf-extract: the model's reply is not a usable plan: " in text
    assert "  model scripted: 1 cluster, 1 request, " in text
    assert failure_note(plan, doc, None) == (
        "gitcurator: error: no cluster got a usable plan from scripted at "
        "http://model.invalid/v1 (1 request); see the reasons above"
    )
    assert failure_note(plan, doc, "curator/x").endswith("see the report on the branch")  # type: ignore[union-attr]


def test_progress_lines() -> None:
    cluster = Cluster(("pdf-a", "pdf-b"), "pdf")
    assert asking_line(1, 3, cluster, 120) == "cluster 1 of 3 (pdf, 2 skills); 120 tokens so far"
    assert asked_line(3, 2.04) == "3 clusters in 2.0 s"

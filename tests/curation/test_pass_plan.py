"""The plan step: the lifecycle's verdicts, where archived skills go, the umbrella step."""

from __future__ import annotations

from support.plans import RUN, pass_inputs, sibling_library
from support.scripted_model import ScriptedModel, plan_reply, umbrella

from gitcurator.curation.pass_plan import moved_entries, plan_pass
from gitcurator.store import ObjectID

PDF = ("pdf-extract-images", "pdf-extract-tables")
A, B = ObjectID(b"a" * 40), ObjectID(b"b" * 40)


def test_without_a_model_the_plan_is_the_lifecycle_and_where_archives_go() -> None:
    files, rows = sibling_library("pdf-extract-tables", idle=("old-notes",))
    plan = plan_pass(pass_inputs(files, rows, recorded={"pdf-extract-tables": "stale"}))
    assert plan.umbrellas is None and plan.folds == () and plan.refused == ()
    assert [t.name for t in plan.lifecycle.archived] == ["old-notes"]
    assert plan.archive_moves == [("old-notes", ".archive/old-notes")]
    assert plan.branch == f"curator/{RUN}"
    assert plan.state_changes == {"pdf-extract-tables": "active"}  # used again: stale no more
    assert plan.states_before == {"old-notes": "active", "pdf-extract-tables": "stale"}


def test_a_pass_with_nothing_to_say_publishes_no_branch() -> None:
    plan = plan_pass(pass_inputs(*sibling_library("pdf-extract-tables")))
    assert plan.lifecycle.transitions == () and plan.branch is None


def test_the_umbrella_step_plans_on_the_tree_the_archive_commit_leaves() -> None:
    files, rows = sibling_library(*PDF, idle=("pdf-extract-forms",))
    model = ScriptedModel(plan_reply(umbrella("pdf-extraction", list(PDF), "x")))
    plan = plan_pass(pass_inputs(files, rows), model)
    # The idle sibling is archived by the lifecycle, so it is no candidate of the cluster.
    assert plan.umbrellas is not None
    assert plan.umbrellas.reviews[0].members == PDF
    assert plan.branch == f"curator/{RUN}"
    assert plan.problems == ()


def test_moved_entries_move_whole_folders_and_nothing_else() -> None:
    entries = {
        "docs/pdf/SKILL.md": (A, 0o100644),
        "docs/pdf/scripts/run.sh": (B, 0o100755),
        "docs/pdf-more/SKILL.md": (A, 0o100644),
        "README.md": (B, 0o100644),
    }
    assert moved_entries(entries, [("docs/pdf", ".archive/docs/pdf")]) == {
        ".archive/docs/pdf/SKILL.md": (A, 0o100644),
        ".archive/docs/pdf/scripts/run.sh": (B, 0o100755),
        "docs/pdf-more/SKILL.md": (A, 0o100644),
        "README.md": (B, 0o100644),
    }
    assert moved_entries(entries, []) == entries

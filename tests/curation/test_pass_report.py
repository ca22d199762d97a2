"""The report step: run.json built once from the plan (and the umbrellas' commits), --json."""

from __future__ import annotations

import json

from support.plans import RUN, kept_body, pass_inputs, sibling_library
from support.scripted_model import ScriptedModel, plan_reply, umbrella

from gitcurator import schemas
from gitcurator.curation.pass_plan import PassPlan, plan_pass
from gitcurator.curation.pass_report import pass_doc, report_files, run_document

PDF = ("pdf-extract-images", "pdf-extract-tables")


def _plan() -> PassPlan:
    files, rows = sibling_library(*PDF, idle=("old-notes",))
    model = ScriptedModel(plan_reply(umbrella("pdf-extraction", list(PDF), kept_body(files, PDF))))
    return plan_pass(pass_inputs(files, rows), model)


def test_run_json_holds_the_lifecycle_the_umbrellas_and_the_counts_after_both() -> None:
    doc = run_document(_plan())
    assert schemas.problems(doc, "run-report") == []
    assert doc["branch"] == f"curator/{RUN}"
    assert [t["skill"] for t in doc["transitions"]] == ["old-notes"]
    [fold] = doc["consolidations"]
    assert fold["umbrella"] == "pdf-extraction" and "commit" not in fold  # nothing committed
    assert doc["llm"]["clusters"][0]["status"] == "applied"
    # old-notes archived, both siblings folded (archived), one umbrella added.
    assert doc["counts"] == {"before": {"active": 3}, "after": {"active": 1, "archived": 3}}


def test_the_umbrellas_commits_are_named_once_written() -> None:
    doc = run_document(_plan(), ["c" * 40])
    assert doc["consolidations"][0]["commit"] == "c" * 40


def test_report_files_are_the_markdown_and_the_json() -> None:
    doc = run_document(_plan())
    files = report_files(doc)
    assert list(files) == [f".curator/runs/{RUN}/REPORT.md", f".curator/runs/{RUN}/run.json"]
    assert json.loads(files[f".curator/runs/{RUN}/run.json"]) == doc
    assert files[f".curator/runs/{RUN}/REPORT.md"].startswith(f"# Curator pass {RUN}\n".encode())


def test_the_json_document_names_the_branch_only_when_published() -> None:
    plan = _plan()
    doc = run_document(plan)
    dry = pass_doc(plan, doc, None, dry_run=True)
    assert dry["branch"] is None and dry["report"] is None and dry["dry_run"] is True
    assert dry["archived"] == ["old-notes"] and dry["stale"] == [] and dry["reactivated"] == []
    real = pass_doc(plan, doc, f"curator/{RUN}", dry_run=False)
    assert real["report"] == f".curator/runs/{RUN}/REPORT.md"
    assert list(real) == [
        "run_id",
        "branch",
        "archived",
        "stale",
        "reactivated",
        "report",
        "transitions",
        "skipped",
        "consolidations",
        "refused",
        "llm",
        "catalogue",
        "dry_run",
    ]

"""The report step of a pass: run.json, its files on the branch, and the --json document, each
built once from the plan and what the apply step wrote (the commit of each umbrella)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gitcurator import schemas
from gitcurator.curation.pass_plan import PassPlan
from gitcurator.indented_json import indented
from gitcurator.lifecycle.report import run_doc, run_paths
from gitcurator.lifecycle.report_markdown import report_markdown
from gitcurator.lifecycle.restore_proposals import restored_counts
from gitcurator.lifecycle.rules import ARCHIVED, STALE


def run_document(plan: PassPlan, commits: Sequence[str] = ()) -> dict[str, Any]:
    """run.json of the pass, schema-checked; `commits` are the umbrellas' commit ids, in the
    order of `plan.folds` (none in a dry run: nothing was committed)."""
    folds = plan.folds
    ids: Sequence[str | None] = commits if commits else [None] * len(folds)
    doc = run_doc(
        run_id=plan.run_id,
        branch=plan.branch,
        base_commit=plan.inputs.tip.decode(),
        plan=plan.lifecycle,
        policy=plan.inputs.config.curator,
        states_before=plan.states_before,
        archived_paths=plan.archived_paths,
        consolidations=[f.to_json(c) for f, c in zip(folds, ids, strict=True)],
        refused=[r.to_json() for r in plan.refused],
        llm=plan.umbrellas.llm_doc() if plan.umbrellas else None,
        catalogue=plan.catalogue.as_doc() if plan.catalogue else None,
    )
    if plan.restores:  # only then: reports of passes that restore nothing read as before
        threshold = plan.inputs.config.curator.restore_after_wanted
        doc["restores"] = [r.to_json(threshold) for r in plan.restores]
        doc["counts"]["after"] = restored_counts(doc["counts"]["after"], len(plan.restores))
    schemas.check(doc, "run-report", f"run.json of {plan.run_id}")
    return doc


def report_files(doc: Mapping[str, Any]) -> dict[str, bytes]:
    """REPORT.md and run.json as the report commit writes them."""
    report_md, run_json = run_paths(doc["run_id"])
    # A folder name that is not UTF-8 is read with surrogateescape: REPORT.md gives it back
    # as the bytes git stores, run.json as JSON's escape (still JSON, read back the same).
    try:
        json_text = (indented(doc) + "\n").encode()
    except UnicodeEncodeError:
        json_text = (json.dumps(doc, indent=2) + "\n").encode()
    return {
        report_md: report_markdown(doc).encode("utf-8", "surrogateescape"),
        run_json: json_text,
    }


def pass_doc(
    plan: PassPlan, doc: Mapping[str, Any], branch: str | None, *, dry_run: bool
) -> dict[str, Any]:
    """`run --json`: the pass in one document; `branch` is the one published, if any."""
    lifecycle = plan.lifecycle
    found = {
        "run_id": plan.run_id,
        "branch": branch,
        "archived": lifecycle.names(ARCHIVED),
        "stale": lifecycle.names(STALE),
        "reactivated": lifecycle.names("active", STALE),
        "report": run_paths(plan.run_id)[0] if branch else None,
        "transitions": doc["transitions"],
        "skipped": doc["skipped"],
        "consolidations": doc["consolidations"],
        "refused": doc["refused"],
        "llm": doc["llm"],
        "catalogue": doc.get("catalogue"),
        "dry_run": dry_run,
        **({"restores": doc["restores"]} if "restores" in doc else {}),
    }
    if "kept" in doc:
        found["kept"] = doc["kept"]
    return found

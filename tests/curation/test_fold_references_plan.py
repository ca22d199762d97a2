"""The plan's reference rewrites: what a fold rewrites, and what it leaves alone."""

from __future__ import annotations

from dataclasses import replace

from support.plans import blob_id, pass_inputs, sibling_library, skill_md
from support.scripted_model import ScriptedModel, plan_reply, umbrella

from gitcurator.curation.pass_plan import plan_pass
from gitcurator.references.scan import scan_entries
from gitcurator.skills.document import find_skills

PDF = ("pdf-extract-images", "pdf-extract-tables")


def test_a_fold_rewrites_live_files_only() -> None:
    files, rows = sibling_library(*PDF, "notes-keeper", idle=("old-notes",))
    files["AGENTS.md"] = b"Tables: `pdf-extract-tables`.\n"
    files["notes-keeper/SKILL.md"] = skill_md("notes-keeper", body="Then /pdf-extract-images.")
    files["notes-keeper/run.md"] = b"`pdf-extract-tables`\n"  # executable: left alone
    files["old-notes/SKILL.md"] = skill_md("old-notes", body="See `pdf-extract-images`.")
    inputs = pass_inputs(files, rows)
    entries = {
        **inputs.entries,
        "notes-keeper/run.md": (blob_id(files["notes-keeper/run.md"]), 0o100755),
    }
    graph, _ = scan_entries(entries, inputs.read, find_skills(entries), ("AGENTS.md",))
    inputs = replace(inputs, entries=entries, references=graph)
    body = "\n\n".join(files[f"{n}/SKILL.md"].decode().split("---\n", 2)[2] for n in PDF)
    model = ScriptedModel(plan_reply(umbrella("pdf-extraction", list(PDF), body)))
    plan = plan_pass(inputs, model)
    [fold] = plan.folds
    # The idle old-notes is archived first; the executable file keeps its text.
    assert sorted(fold.rewritten) == ["AGENTS.md", "notes-keeper/SKILL.md"]
    assert fold.rewritten["AGENTS.md"] == b"Tables: `pdf-extraction`.\n"
    assert b"Then /pdf-extraction." in fold.rewritten["notes-keeper/SKILL.md"]
    assert [r.describe() for r in fold.references] == [
        "AGENTS.md:1 (backticks): pdf-extract-tables -> pdf-extraction",
        "notes-keeper/SKILL.md:8 (slash): pdf-extract-images -> pdf-extraction",
    ]
    assert fold.to_json()["references_rewritten"][0]["path"] == "AGENTS.md"

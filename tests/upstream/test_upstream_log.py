"""`gitcurator log` lists the skills taken from upstream: each `add` and `update` commit."""

from __future__ import annotations

import json
from pathlib import Path

from support.repos import git, run_cli
from support.upstream import commit_all, edit_line, make_library, make_source


def test_log_lists_add_and_update_with_their_skills(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "xlsx", "-C", str(lib)).code == 0
    edit_line(source / "skills/pdf/SKILL.md", "Step 2 of pdf.", "Step 2, upstream.")
    commit_all(source, "edit")
    assert run_cli("update", "-C", str(lib)).code == 0
    run_id = git("log", "-1", "--format=%(trailers:key=Update-Run,valueonly)", cwd=lib)
    entries = json.loads(run_cli("log", "--json", "-C", str(lib)).out)
    assert [(e["kind"], e["skills"], e["run_id"]) for e in entries[:2]] == [
        ("update", ["pdf"], run_id.stdout.strip()),
        ("add", ["pdf", "xlsx"], None),
    ]
    text = run_cli("log", "-C", str(lib)).out.splitlines()
    assert "updated pdf" in text[0] and "added pdf, xlsx" in text[1], text

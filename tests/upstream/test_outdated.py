"""`gitcurator outdated`: source moved, changed upstream, edited here, removed upstream."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from support.repos import git, run_cli
from support.upstream import commit_all, edit_line, head, make_library, make_source


def _outdated(lib: Path) -> dict[str, dict[str, object]]:
    result = run_cli("outdated", "--json", "-C", str(lib))
    assert result.code == 0, result
    return {row["name"]: row for row in json.loads(result.out)["skills"]}


def test_reports_upstream_changes_local_edits_and_removals(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path, ("pdf", "xlsx", "docx")), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "xlsx", "docx", "-C", str(lib)).code == 0
    rows = _outdated(lib)
    assert not any(
        r["source_moved"] or r["changed_upstream"] or r["edited_locally"] for r in rows.values()
    )
    edit_line(source / "skills/pdf/SKILL.md", "Step 2 of pdf.", "Step 2 of pdf, revised.")
    shutil.rmtree(source / "skills/docx")
    new = commit_all(source, "upstream moves on")
    edit_line(lib / "xlsx/SKILL.md", "Step 3 of xlsx.", "Step 3, my way.")
    git("commit", "--quiet", "-am", "my edit", cwd=lib)
    before = head(lib)
    rows = _outdated(lib)
    assert rows["pdf"]["changed_upstream"] and not rows["pdf"]["edited_locally"]
    assert rows["pdf"]["source_commit"] == new and rows["pdf"]["source_moved"]
    assert rows["xlsx"]["edited_locally"] and not rows["xlsx"]["changed_upstream"]
    assert rows["docx"]["removed_upstream"] and rows["docx"]["in_library"]
    assert (lib / "docx/SKILL.md").is_file(), "never deleted"
    assert head(lib) == before
    text = run_cli("outdated", "-C", str(lib)).out
    assert "pdf: changed in" in text and "xlsx: up to date" in text and "edited here" in text
    assert "docx: removed from" in text


def test_an_unreachable_source_is_reported_per_skill_and_exits_0(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    shutil.rmtree(source)
    rows = _outdated(lib)
    assert rows["pdf"]["error"] and "upstream" in str(rows["pdf"]["error"])
    assert rows["pdf"]["edited_locally"] is False  # the base is kept locally


def test_nothing_added_says_so(tmp_path: Path) -> None:
    lib = make_library(tmp_path)
    result = run_cli("outdated", "-C", str(lib))
    assert result.code == 0 and "no skill here was added from upstream" in result.out


def test_a_clone_without_the_notes_follows_the_trailers(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    edit_line(source / "skills/pdf/SKILL.md", "Step 2 of pdf.", "Step 2 of pdf, revised.")
    commit_all(source, "upstream moves on")
    other = tmp_path / "other"
    git("clone", "--quiet", str(lib), str(other), cwd=tmp_path)  # no notes, no side refs
    rows = _outdated(other)
    assert rows["pdf"]["changed_upstream"] and rows["pdf"]["edited_locally"] is False
    result = run_cli("update", "-C", str(other))
    assert result.code == 0, result
    assert "Step 2 of pdf, revised." in (other / "pdf/SKILL.md").read_text()

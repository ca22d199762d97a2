"""`gitcurator update`: three-way merges of upstream changes into local edits, clean commits
per source, conflicts on a review branch, and what is refused."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from support.git_daemon import http_git_server
from support.repos import git, run_cli
from support.upstream import (
    commit_all,
    conflict_fixed_upstream_way,
    edit_line,
    fsck,
    git_daemon,
    head,
    make_library,
    make_source,
)


def _added(tmp_path: Path, *names: str) -> tuple[Path, Path]:
    source, lib = make_source(tmp_path, names or ("pdf", "xlsx")), make_library(tmp_path)
    assert run_cli("add", str(source), *(names or ("pdf", "xlsx")), "-C", str(lib)).code == 0
    return source, lib


def _local_edit(lib: Path, path: str, old: str, new: str) -> None:
    edit_line(lib / path, old, new)
    git("commit", "--quiet", "-am", f"edit {path}", cwd=lib)


def test_different_lines_merge_cleanly_into_one_commit_per_source(tmp_path: Path) -> None:
    source, lib = _added(tmp_path)
    old = head(source)
    edit_line(source / "skills/pdf/SKILL.md", "Step 2 of pdf.", "Step 2 of pdf, upstream.")
    edit_line(source / "skills/xlsx/SKILL.md", "Step 9 of xlsx.", "Step 9 of xlsx, upstream.")
    new = commit_all(source, "upstream edits")
    _local_edit(lib, "pdf/SKILL.md", "Step 8 of pdf.", "Step 8 of pdf, mine.")
    result = run_cli("update", "-C", str(lib))
    assert result.code == 0, result
    text = (lib / "pdf/SKILL.md").read_text()
    assert "Step 2 of pdf, upstream." in text and "Step 8 of pdf, mine." in text
    assert "Step 9 of xlsx, upstream." in (lib / "xlsx/SKILL.md").read_text()
    subject = git("log", "-1", "--format=%s", cwd=lib).stdout.strip()
    assert subject == f"update: 2 skills from {source} ({old[:7]} → {new[:7]})"
    trailers = git("log", "-1", "--format=%(trailers:only)", cwd=lib).stdout
    assert f"Skill-Source: pdf {source}@{new} path=skills/pdf" in trailers
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    kept = git("for-each-ref", "--format=%(objectname)", "refs/gitcurator/", cwd=lib).stdout
    assert sorted(kept.split()) == [new, new], "the tip and the one base still recorded"
    # The new commit is recorded: a second update has nothing to do.
    again = json.loads(run_cli("update", "--json", "-C", str(lib)).out)
    assert {s["result"] for s in again["skills"]} == {"unchanged"}
    fsck(lib)


def test_same_lines_conflict_go_to_a_review_branch_then_merge(tmp_path: Path) -> None:
    source, lib = _added(tmp_path)
    edit_line(source / "skills/pdf/SKILL.md", "Step 4 of pdf.", "Step 4, upstream's way.")
    commit_all(source, "upstream edit")
    _local_edit(lib, "pdf/SKILL.md", "Step 4 of pdf.", "Step 4, my way.")
    before = head(lib)
    result = run_cli("update", "-C", str(lib))
    assert result.code == 1, result
    assert "pdf/SKILL.md" in result.out and "update/" in result.out
    assert head(lib) == before, "the default branch is untouched"
    assert "Step 4, my way." in (lib / "pdf/SKILL.md").read_text()
    branch = next(
        b.strip()
        for b in git("branch", "--format=%(refname:short)", cwd=lib).stdout.split()
        if b.startswith("update/")
    )
    shown = git("show", f"{branch}:pdf/SKILL.md", cwd=lib).stdout
    assert "<<<<<<<" in shown and "Step 4, my way." in shown and "Step 4, upstream's way." in shown
    refused = run_cli("merge", branch, "-C", str(lib))
    assert refused.code == 1 and "conflict markers" in refused.err, refused
    assert head(lib) == before
    git("switch", "--quiet", branch, cwd=lib)
    fixed = "\n".join(
        ln
        for ln in shown.splitlines()
        if not ln.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||"))
        and "upstream's way" not in ln
    )
    (lib / "pdf/SKILL.md").write_text(fixed + "\n")
    git("commit", "--quiet", "-am", "take mine", cwd=lib)
    git("switch", "--quiet", "main", cwd=lib)
    merged = run_cli("merge", branch, "-C", str(lib))
    assert merged.code == 0, merged
    assert "Step 4, my way." in (lib / "pdf/SKILL.md").read_text()
    assert "<<<<<<<" not in (lib / "pdf/SKILL.md").read_text()
    rows = json.loads(run_cli("outdated", "--json", "-C", str(lib)).out)["skills"]
    pdf = next(r for r in rows if r["name"] == "pdf")
    assert not pdf["source_moved"], "the merge recorded the new source commit"
    fsck(lib)


def test_added_removed_renamed_files_modes_and_binaries(tmp_path: Path) -> None:
    source, lib = _added(tmp_path, "pdf")
    skill = source / "skills/pdf"
    (skill / "notes.md").write_text("old notes\n")
    (skill / "tool.sh").write_text("#!/bin/sh\n")
    (skill / "logo.png").write_bytes(b"\x89PNG\x00\x01")
    commit_all(source, "more files")
    assert run_cli("update", "-C", str(lib)).code == 0
    git("mv", "notes.md", "reference.md", cwd=skill)
    (skill / "tool.sh").chmod(0o755)
    (skill / "extra.md").write_text("new file\n")
    (skill / "logo.png").write_bytes(b"\x89PNG\x00\x02")
    commit_all(source, "rename, chmod, add, binary")
    result = run_cli("update", "-C", str(lib))
    assert result.code == 0, result
    assert (lib / "pdf/reference.md").read_text() == "old notes\n"
    assert not (lib / "pdf/notes.md").exists()
    assert os.access(lib / "pdf/tool.sh", os.X_OK)
    assert (lib / "pdf/extra.md").is_file()
    assert (lib / "pdf/logo.png").read_bytes() == b"\x89PNG\x00\x02"
    # Both sides change the binary: a conflict, never a silent pick.
    (skill / "logo.png").write_bytes(b"\x89PNG\x00\x03")
    commit_all(source, "binary again")
    (lib / "pdf/logo.png").write_bytes(b"\x89PNG\x00\x04")
    git("commit", "--quiet", "-am", "my logo", cwd=lib)
    conflicted = run_cli("update", "-C", str(lib))
    assert conflicted.code == 1 and "logo.png" in conflicted.out
    assert (lib / "pdf/logo.png").read_bytes() == b"\x89PNG\x00\x04"


def test_removed_upstream_is_reported_and_kept(tmp_path: Path) -> None:
    source, lib = _added(tmp_path)
    shutil.rmtree(source / "skills/xlsx")
    commit_all(source, "drop xlsx")
    result = run_cli("update", "-C", str(lib))
    assert result.code == 0, result
    assert "xlsx: removed upstream (kept here)" in result.out
    assert (lib / "xlsx/SKILL.md").is_file()


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    source, lib = _added(tmp_path)
    edit_line(source / "skills/pdf/SKILL.md", "Step 2 of pdf.", "Step 2, new.")
    commit_all(source, "edit")
    before = head(lib)
    result = run_cli("update", "--dry-run", "-C", str(lib))
    assert result.code == 0 and "pdf: merged" in result.out and "dry run" in result.out
    assert head(lib) == before
    assert "update/" not in git("branch", cwd=lib).stdout


def test_a_vanished_source_and_a_gone_ref_are_named_and_exit_1(tmp_path: Path) -> None:
    source, lib = _added(tmp_path, "pdf")
    write_more = make_source(tmp_path / "second", ("docx",))
    assert run_cli("add", str(write_more), "docx", "--ref", "main", "-C", str(lib)).code == 0
    git("branch", "-m", "main", "trunk", cwd=write_more)
    shutil.rmtree(source)
    result = run_cli("update", "-C", str(lib))
    assert result.code == 1
    assert "pdf: source unreachable" in result.out and str(source) in result.out
    assert "docx: source unreachable" in result.out and "main" in result.out


def test_an_update_that_fails_validation_is_refused(tmp_path: Path) -> None:
    source, lib = _added(tmp_path, "pdf")
    text = (source / "skills/pdf/SKILL.md").read_text()
    (source / "skills/pdf/SKILL.md").write_text(text.replace("name: pdf", "name: [broken"))
    commit_all(source, "break it")
    before = head(lib)
    result = run_cli("update", "-C", str(lib))
    assert result.code == 1 and "nothing was changed" in result.err, result
    assert "pdf/SKILL.md" in result.err
    assert head(lib) == before


def _conflicted_branch(tmp_path: Path) -> tuple[Path, Path, str]:
    source, lib = _added(tmp_path)
    return source, lib, conflict_fixed_upstream_way(source, lib)


def test_a_branch_touching_other_skills_is_refused(tmp_path: Path) -> None:
    _, lib, branch = _conflicted_branch(tmp_path)
    git("rm", "--quiet", "-r", "notes", cwd=lib)
    git("commit", "--quiet", "-m", "sneak a deletion in", cwd=lib)
    git("switch", "--quiet", "main", cwd=lib)
    before = head(lib)
    result = run_cli("merge", branch, "-C", str(lib))
    assert result.code == 1 and "notes/SKILL.md" in result.err and "outside" in result.err
    assert head(lib) == before and (lib / "notes/SKILL.md").is_file()


def test_a_crafted_update_branch_naming_a_local_skill_is_refused(tmp_path: Path) -> None:
    _, lib = _added(tmp_path)
    git("switch", "--quiet", "-c", "update/evil", cwd=lib)
    (lib / "notes/SKILL.md").write_text("---\nname: notes\ndescription: hijacked\n---\nx\n")
    sha = "0" * 40
    message = f"update: evil\n\nUpdate-Run: evil\nSkill-Source: notes /x@{sha} path=notes\n"
    git("commit", "--quiet", "-am", message, cwd=lib)
    git("switch", "--quiet", "main", cwd=lib)
    before = head(lib)
    result = run_cli("merge", "update/evil", "-C", str(lib))
    assert result.code == 1 and "does not follow" in result.err, result
    assert head(lib) == before


def test_a_fixed_branch_merges_after_main_moved(tmp_path: Path) -> None:
    _, lib, branch = _conflicted_branch(tmp_path)
    git("switch", "--quiet", "main", cwd=lib)
    edit_line(lib / "notes/SKILL.md", "# notes", "# notes, edited")
    git("commit", "--quiet", "-am", "meanwhile", cwd=lib)
    result = run_cli("merge", branch.removeprefix("update/"), "-C", str(lib))
    assert result.code == 0, result
    assert "Step 4, upstream's way." in (lib / "pdf/SKILL.md").read_text()
    assert "# notes, edited" in (lib / "notes/SKILL.md").read_text()
    assert git("log", "-1", "--format=%P", cwd=lib).stdout.count(" ") == 1, "a merge commit"
    fsck(lib)


@pytest.mark.parametrize("server", [git_daemon, http_git_server])
def test_update_over_git_and_http_servers(tmp_path: Path, server: Any) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    served = tmp_path / "served"
    served.mkdir()
    bare = served / "skills.git"
    git("clone", "--quiet", "--bare", str(source), str(bare), cwd=tmp_path)
    git("remote", "add", "served", str(bare), cwd=source)
    with server(served) as base:
        assert run_cli("add", f"{base}/skills.git", "pdf", "-C", str(lib)).code == 0
        edit_line(source / "skills/pdf/SKILL.md", "Step 2 of pdf.", "Step 2, served.")
        commit_all(source, "edit")
        git("push", "--quiet", "served", "main", cwd=source)
        result = run_cli("update", "-C", str(lib))
    assert result.code == 0, result
    assert "Step 2, served." in (lib / "pdf/SKILL.md").read_text()

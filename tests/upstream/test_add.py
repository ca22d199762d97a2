"""`gitcurator add`: listing a source, copying skills with their provenance, refusing what
must not come in."""

from __future__ import annotations

import json
import os
from pathlib import Path

from support.repos import git, run_cli
from support.upstream import commit_all, fsck, git_daemon, head, make_library, make_source


def test_without_names_lists_the_offered_skills_and_adds_nothing(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    before = head(lib)
    result = run_cli("add", str(source), "-C", str(lib))
    assert result.code == 0, result
    assert "pdf" in result.out and "xlsx" in result.out and "offers 2 skills" in result.out
    assert head(lib) == before
    doc = json.loads(run_cli("add", str(source), "--json", "-C", str(lib)).out)
    assert [s["name"] for s in doc["skills"]] == ["pdf", "xlsx"]
    assert doc["skills"][0]["path"] == "skills/pdf"


def test_add_copies_the_folder_as_one_commit_with_its_source(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    (source / "skills/pdf/scripts").mkdir()
    script = source / "skills/pdf/scripts/run.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    upstream = commit_all(source, "a script")
    result = run_cli("add", str(source), "pdf", "-C", str(lib))
    assert result.code == 0, result
    assert (lib / "pdf/SKILL.md").read_text() == (source / "skills/pdf/SKILL.md").read_text()
    assert os.access(lib / "pdf/scripts/run.sh", os.X_OK)
    log = git("log", "-1", "--format=%s%n%(trailers:only)", cwd=lib).stdout
    assert log.startswith("add: 1 skill from ")
    assert f"Skill-Source: pdf {source}@{upstream} path=skills/pdf" in log
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    shown = json.loads(run_cli("show", "pdf", "--json", "-C", str(lib)).out)
    assert shown["origin"] == "hub"
    refs = git("for-each-ref", "--format=%(refname)", "refs/gitcurator/", cwd=lib).stdout
    assert refs.strip(), "the source commit is kept under a side ref"
    fsck(lib)


def test_an_existing_name_is_refused_unless_taken_under_another(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    before = head(lib)
    again = run_cli("add", str(source), "pdf", "-C", str(lib))
    assert again.code == 1 and "already has a skill named pdf" in again.err and "--as" in again.err
    assert head(lib) == before
    renamed = run_cli("add", str(source), "pdf", "--as", "pdf-two", "-C", str(lib))
    assert renamed.code == 0, renamed
    assert "name: pdf-two\n" in (lib / "pdf-two/SKILL.md").read_text()
    assert run_cli("validate", "-C", str(lib)).code == 0


def test_over_git_daemon(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    served = tmp_path / "served"
    served.mkdir()
    git("clone", "--quiet", "--bare", str(source), str(served / "skills.git"), cwd=tmp_path)
    with git_daemon(served) as base:
        result = run_cli("add", f"{base}/skills.git", "xlsx", "-C", str(lib))
    assert result.code == 0, result
    assert (lib / "xlsx/SKILL.md").is_file()

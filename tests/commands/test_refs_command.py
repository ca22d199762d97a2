"""`gitcurator refs NAME`: the graph for one skill, live, archived or absorbed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.references import committed_library, ok
from support.repos import git, run_cli

SKILLS = {
    "pdf-forms": "Fill PDF forms. Then see `pdf-merge`.",
    "pdf-merge": "Merge PDFs; forms come first ([forms](../pdf-forms/SKILL.md)).",
    "git": "Use git well.",
    "notes": "Run git and test it; write notes.",
}
FILES = {"AGENTS.md": "# Team\n\nAlways load skill:pdf-forms and $pdf-merge.\n"}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return committed_library(tmp_path / "lib", monkeypatch, SKILLS, FILES)


def test_refs_lists_both_directions_with_file_line_and_kind(repo: Path) -> None:
    doc = json.loads(ok(repo, "refs", "pdf-forms", "--json"))
    assert doc["state"] == "live" and doc["path"] == "pdf-forms"
    assert [
        (r["source"], r["source_kind"], r["kind"], r["path"], r["line"])
        for r in doc["referenced_by"]
    ] == [
        ("AGENTS.md", "file", "skill-prefix", "AGENTS.md", 3),
        ("pdf-merge", "skill", "link", "pdf-merge/SKILL.md", 8),
    ]
    assert [(r["target"], r["kind"], r["target_state"]) for r in doc["references"]] == [
        ("pdf-merge", "backticks", "live")
    ]
    text = ok(repo, "refs", "pdf-forms")
    assert "AGENTS.md:3  file  skill-prefix: pdf-forms" in text
    assert "pdf-merge/SKILL.md:8  skill pdf-merge  link: ../pdf-forms/SKILL.md" in text


def test_a_plain_word_is_no_reference(repo: Path) -> None:
    doc = json.loads(ok(repo, "refs", "git", "--json"))
    assert doc["referenced_by"] == [] and doc["references"] == []
    assert "referred to by nothing" in ok(repo, "refs", "git")


def test_an_archived_skill_still_answers(repo: Path) -> None:
    ok(repo, "archive", "pdf-forms")
    doc = json.loads(ok(repo, "refs", "pdf-forms", "--json"))
    assert doc["state"] == "archived" and doc["path"] == ".archive/pdf-forms"
    assert len(doc["referenced_by"]) == 2
    merge = json.loads(ok(repo, "refs", "pdf-merge", "--json"))
    assert [r["target_state"] for r in merge["references"]] == ["archived"]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("pdf-form", "did you mean pdf-forms"),
        ("zzz", "see `gitcurator list`"),
        ("a/b", "is a path"),
    ],
)
def test_an_unknown_name_is_an_error_with_close_matches(repo: Path, name: str, said: str) -> None:
    result = run_cli("refs", name, "-C", str(repo))
    assert result.code == 1 and said in result.err, result


def test_an_unreadable_reference_file_is_a_note(repo: Path) -> None:
    (repo / "CLAUDE.md").write_bytes(b"`pdf-forms`\0binary")
    git("add", "CLAUDE.md", cwd=repo)
    git("commit", "-qm", "binary", cwd=repo)
    result = run_cli("refs", "pdf-forms", "--json", "-C", str(repo))
    assert result.code == 0 and "CLAUDE.md: skipped, a binary file" in result.err
    assert json.loads(result.out)["skipped"] == ["CLAUDE.md: skipped, a binary file"]


def test_a_glob_leaving_the_repository_is_a_clear_config_error(repo: Path) -> None:
    config = repo / ".gitcurator.yaml"
    config.write_text(config.read_text() + "reference_files: ['../outside/AGENTS.md']\n")
    result = run_cli("refs", "pdf-forms", "-C", str(repo))
    assert result.code == 1, result
    assert "reference_files glob '../outside/AGENTS.md' leaves the repository" in result.err


def test_bad_input_is_a_clear_error_or_a_note(repo: Path) -> None:
    (repo / "CLAUDE.md").symlink_to("/etc/passwd")  # a reference file leading out of the repo
    git("add", "CLAUDE.md", cwd=repo)
    git("commit", "-qm", "link", cwd=repo)
    state = repo / ".git/gitcurator"
    state.mkdir(exist_ok=True)
    state.chmod(0o500)  # a read-only state folder: the cache is not written, refs answers
    try:
        result = run_cli("refs", "pdf-forms", "-C", str(repo))
    finally:
        state.chmod(0o700)
    assert result.code == 0, result
    assert "CLAUDE.md: skipped, not a regular file" in result.err
    (repo / ".gitcurator.yaml").write_text("curator: [unclosed\n")
    broken = run_cli("refs", "pdf-forms", "-C", str(repo))
    assert broken.code == 1 and "not valid YAML" in broken.err, broken
    assert run_cli("refs", "-C", str(repo)).code == 2

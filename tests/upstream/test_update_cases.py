"""`gitcurator update` around the edges: a skill taken under another name, a dirty work tree,
two conflicted runs, names it does not follow, an archived skill."""

from __future__ import annotations

from pathlib import Path

from support.repos import git, run_cli
from support.upstream import (
    commit_all,
    conflict_fixed_upstream_way,
    edit_line,
    head,
    make_library,
    make_source,
)


def test_a_skill_added_under_another_name_follows_its_source(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "--as", "my-pdf", "-C", str(lib)).code == 0
    rows = run_cli("outdated", "-C", str(lib)).out
    assert "my-pdf: up to date" in rows and "edited here" not in rows
    edit_line(source / "skills/pdf/SKILL.md", "Step 5 of pdf.", "Step 5, upstream.")
    commit_all(source, "edit")
    result = run_cli("update", "-C", str(lib))
    assert result.code == 0, result
    text = (lib / "my-pdf/SKILL.md").read_text()
    assert "name: my-pdf\n" in text and "Step 5, upstream." in text


def _pdf_moved_upstream(tmp_path: Path) -> Path:
    """A library that took pdf, whose source then changed its step 5: the library."""
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    edit_line(source / "skills/pdf/SKILL.md", "Step 5 of pdf.", "Step 5, upstream.")
    commit_all(source, "edit")
    return lib


def test_uncommitted_changes_in_an_updated_skill_are_refused(tmp_path: Path) -> None:
    lib = _pdf_moved_upstream(tmp_path)
    edit_line(lib / "pdf/SKILL.md", "Step 1 of pdf.", "Step 1, not committed.")
    before = head(lib)
    result = run_cli("update", "-C", str(lib))
    assert result.code == 1 and "uncommitted changes" in result.err, result
    assert head(lib) == before
    assert "Step 1, not committed." in (lib / "pdf/SKILL.md").read_text()


def test_two_conflicted_runs_get_two_branches(tmp_path: Path) -> None:
    lib = _pdf_moved_upstream(tmp_path)
    edit_line(lib / "pdf/SKILL.md", "Step 5 of pdf.", "Step 5, mine.")
    git("commit", "--quiet", "-am", "mine", cwd=lib)
    for _ in range(2):
        assert run_cli("update", "-C", str(lib)).code == 1
    names = git("branch", "--list", "update/*", "--format=%(refname:short)", cwd=lib).stdout
    assert len(names.split()) == 2, names


def test_names_it_does_not_follow_are_refused(tmp_path: Path) -> None:
    lib = make_library(tmp_path)
    result = run_cli("update", "notes", "-C", str(lib))
    assert result.code == 1 and "not added from upstream" in result.err


def test_an_archived_skill_is_left_alone(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "xlsx", "-C", str(lib)).code == 0
    assert run_cli("archive", "xlsx", "-C", str(lib)).code == 0
    edit_line(source / "skills/xlsx/SKILL.md", "Step 5 of xlsx.", "Step 5, upstream.")
    commit_all(source, "edit")
    result = run_cli("update", "-C", str(lib))
    assert result.code == 0 and "xlsx: not live here" in result.out, result
    assert "Step 5, upstream." not in (lib / ".archive/xlsx/SKILL.md").read_text()


def test_two_sources_make_two_commits(tmp_path: Path) -> None:
    one = make_source(tmp_path / "one", ("pdf",))
    two = make_source(tmp_path / "two", ("xlsx",))
    lib = make_library(tmp_path)
    assert run_cli("add", str(one), "pdf", "-C", str(lib)).code == 0
    assert run_cli("add", str(two), "xlsx", "-C", str(lib)).code == 0
    edit_line(one / "skills/pdf/SKILL.md", "Step 5 of pdf.", "Step 5, one.")
    commit_all(one, "edit")
    edit_line(two / "skills/xlsx/SKILL.md", "Step 5 of xlsx.", "Step 5, two.")
    commit_all(two, "edit")
    before = head(lib)
    result = run_cli("update", "-C", str(lib))
    assert result.code == 0, result
    subjects = git("log", "--format=%s", f"{before}..HEAD", cwd=lib).stdout.splitlines()
    assert len(subjects) == 2 and all(s.startswith("update: 1 skill from ") for s in subjects)
    assert git("status", "--porcelain", cwd=lib).stdout == ""


def test_an_adopted_skill_keeps_its_origin_through_updates(tmp_path: Path) -> None:
    import json

    lib = _pdf_moved_upstream(tmp_path)
    assert run_cli("adopt", "pdf", "-C", str(lib)).code in (0, 1)
    assert run_cli("track", "pdf", "--origin", "agent", "-C", str(lib)).code == 0
    assert run_cli("update", "-C", str(lib)).code == 0
    shown = json.loads(run_cli("show", "pdf", "--json", "-C", str(lib)).out)
    assert shown["origin"] == "agent"


def test_a_hostile_update_is_refused(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    (source / "skills/pdf/passwd").symlink_to("../../../../etc/passwd")
    commit_all(source, "a link out")
    before = head(lib)
    result = run_cli("update", "-C", str(lib))
    assert result.code == 1 and "passwd" in result.err and "nothing was changed" in result.err
    assert head(lib) == before and not (lib / "pdf/passwd").exists()


def test_on_the_review_branch_the_default_branch_is_still_main(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    branch = conflict_fixed_upstream_way(source, lib)  # the person is on the review branch
    assert run_cli("add", str(source), "xlsx", "-C", str(lib)).code == 0
    assert git("ls-tree", "--name-only", "main", cwd=lib).stdout.split().count("xlsx") == 1
    assert "xlsx" not in git("ls-tree", "--name-only", branch, cwd=lib).stdout.split()
    merged = run_cli("merge", branch, "-C", str(lib))
    assert merged.code == 0, merged
    assert "Step 4, upstream's way." in git("show", "main:pdf/SKILL.md", cwd=lib).stdout

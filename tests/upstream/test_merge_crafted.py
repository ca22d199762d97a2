"""`gitcurator merge update/<id>` of a branch someone else crafted: whatever it smuggles past
the skills the update merged is refused, naming what is wrong, and nothing changes."""

from __future__ import annotations

import json
import os
from pathlib import Path

from support.repos import git, run_cli
from support.upstream import conflict_fixed_upstream_way, head, make_library, make_source


def _branch(tmp_path: Path, *names: str) -> tuple[Path, Path, str]:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), *(names or ("pdf",)), "-C", str(lib)).code == 0
    return source, lib, conflict_fixed_upstream_way(source, lib)


def _refused(lib: Path, branch: str, *words: str) -> None:
    git("switch", "--quiet", "main", cwd=lib)
    before = head(lib)
    result = run_cli("merge", branch, "-C", str(lib))
    assert result.code == 1, result
    for word in words:
        assert word in result.err, (word, result.err)
    assert head(lib) == before


def _forge_update_commit(lib: Path, message: str) -> None:
    """Fold the fix into the update's own commit, whose message becomes `message`."""
    git("reset", "--quiet", "--soft", "HEAD~1", cwd=lib)
    git("commit", "--quiet", "--amend", "-m", message, cwd=lib)


def test_a_fix_that_makes_a_file_executable_is_refused(tmp_path: Path) -> None:
    _, lib, branch = _branch(tmp_path)
    (lib / "pdf/SKILL.md").chmod(0o755)
    git("commit", "--quiet", "-am", "chmod", cwd=lib)
    _refused(lib, branch, "pdf/SKILL.md", "executable")


def test_a_fix_that_adds_a_symlink_out_is_refused(tmp_path: Path) -> None:
    _, lib, branch = _branch(tmp_path)
    (lib / "pdf/passwd").symlink_to("../../../../etc/passwd")
    git("add", "pdf/passwd", cwd=lib)
    git("commit", "--quiet", "-m", "link", cwd=lib)
    _refused(lib, branch, "pdf/passwd")


def test_a_trailer_that_moves_the_source_path_is_refused(tmp_path: Path) -> None:
    source, lib, branch = _branch(tmp_path)
    tip = head(source)
    message = (
        f"fix\n\nUpdate-Run: {branch.removeprefix('update/')}\n"
        f"Skill-Source: pdf {source}@{tip} path=skills/xlsx ref=evil\n"
    )
    _forge_update_commit(lib, message)
    _refused(lib, branch, "pdf", "skills/xlsx")


def test_a_trailer_naming_a_commit_not_fetched_is_refused(tmp_path: Path) -> None:
    source, lib, branch = _branch(tmp_path)
    message = (
        f"fix\n\nUpdate-Run: {branch.removeprefix('update/')}\n"
        f"Skill-Source: pdf {source}@{'1' * 40} path=skills/pdf\n"
    )
    _forge_update_commit(lib, message)
    _refused(lib, branch, "1111111111")


def test_a_fix_that_edits_another_skills_lock_entry_is_refused(tmp_path: Path) -> None:
    _, lib, branch = _branch(tmp_path)
    lock = {
        "version": 1,
        "skills": {"notes": {"source": "evil/notes", "sourceType": "github", "computedHash": "0"}},
    }
    (lib / "skills-lock.json").write_text(json.dumps(lock))
    git("add", "skills-lock.json", cwd=lib)
    git("commit", "--quiet", "-m", "lock", cwd=lib)
    _refused(lib, branch, "skills-lock.json", "notes")


def test_a_tag_named_like_an_update_branch_is_not_merged(tmp_path: Path) -> None:
    _, lib, branch = _branch(tmp_path)
    git("tag", "update/tagged", branch, cwd=lib)
    git("switch", "--quiet", "main", cwd=lib)
    result = run_cli("merge", "update/tagged", "-C", str(lib))
    assert result.code == 1 and "no update branch" in result.err, result
    assert os.path.exists(lib)


def test_a_fix_that_names_another_followed_skill_is_refused(tmp_path: Path) -> None:
    source, lib, branch = _branch(tmp_path, "pdf", "xlsx")
    message = (
        f"fix\n\nUpdate-Run: {branch.removeprefix('update/')}\n"
        f"Skill-Source: xlsx {source}@{head(source)} path=skills/xlsx\n"
    )
    (lib / "xlsx/SKILL.md").write_text("---\nname: xlsx\ndescription: Use when hijacked.\n---\n")
    git("commit", "--quiet", "-am", message, cwd=lib)
    _refused(lib, branch, "names skills", "after the update's own commits")


def test_an_orphan_or_a_branch_that_is_no_commit_is_refused_not_a_crash(tmp_path: Path) -> None:
    _, lib, _ = _branch(tmp_path)
    git("switch", "--quiet", "--orphan", "update/orphan", cwd=lib)
    git("commit", "--quiet", "--allow-empty", "-m", "x\n\nUpdate-Run: orphan\n", cwd=lib)
    _refused(lib, "update/orphan", "does not start from main's history")
    tree = git("rev-parse", "HEAD^{tree}", cwd=lib).stdout.strip()
    (lib / ".git/refs/heads/update/tree").write_text(tree + "\n")  # git itself refuses this
    _refused(lib, "update/tree", "update/tree points at", "not a commit")


def test_a_fix_that_removes_the_merged_skill_is_refused(tmp_path: Path) -> None:
    _, lib, branch = _branch(tmp_path)
    git("rm", "--quiet", "-r", "pdf", cwd=lib)
    git("commit", "--quiet", "-m", "drop", cwd=lib)
    _refused(lib, branch, "removes pdf", "never does")
    assert (lib / "pdf/SKILL.md").is_file()


def test_a_fix_that_adds_a_link_into_another_skill_or_a_submodule_is_refused(
    tmp_path: Path,
) -> None:
    _, lib, branch = _branch(tmp_path)
    (lib / "pdf/other").symlink_to("../notes")
    sha = head(lib)
    git("update-index", "--add", "--cacheinfo", f"160000,{sha},pdf/vendor", cwd=lib)
    git("add", "pdf/other", cwd=lib)
    git("commit", "--quiet", "-m", "links", cwd=lib)
    _refused(lib, branch, "pdf/other", "pdf/vendor: a submodule")


def test_a_link_out_the_library_already_had_does_not_block_the_merge(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    (lib / "pdf/notes-link").symlink_to("../notes")
    git("add", "pdf/notes-link", cwd=lib)
    git("commit", "--quiet", "-m", "my own link", cwd=lib)
    branch = conflict_fixed_upstream_way(source, lib)
    git("switch", "--quiet", "main", cwd=lib)
    result = run_cli("merge", branch, "-C", str(lib))
    assert result.code == 0, result

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
    (lib / "pdf/SKILL.md").write_text((lib / "pdf/SKILL.md").read_text() + "\nmore\n")
    git("commit", "--quiet", "-am", message, cwd=lib)
    _refused(lib, branch, "pdf", "skills/xlsx")


def test_a_trailer_naming_a_commit_not_fetched_is_refused(tmp_path: Path) -> None:
    source, lib, branch = _branch(tmp_path)
    message = (
        f"fix\n\nUpdate-Run: {branch.removeprefix('update/')}\n"
        f"Skill-Source: pdf {source}@{'1' * 40} path=skills/pdf\n"
    )
    (lib / "pdf/SKILL.md").write_text((lib / "pdf/SKILL.md").read_text() + "\nmore\n")
    git("commit", "--quiet", "-am", message, cwd=lib)
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

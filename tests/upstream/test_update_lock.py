"""skills-lock.json (`npx skills`): its skills followed without re-adding, its computedHash kept
right by the commits that change them, and a lock with conflict markers refused."""

from __future__ import annotations

import json
import shutil
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

from gitcurator.commands.upstream_lock import _url
from gitcurator.upstream.skills_lock import computed_hash


def _hash(folder: Path) -> str:
    files = {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }
    return computed_hash(files)


def _npx_library(tmp_path: Path, ref: str | None) -> tuple[Path, Path]:
    """A library as `npx skills` leaves it: the skill copied, the lock naming its source."""
    source, lib = make_source(tmp_path), make_library(tmp_path)
    shutil.copytree(source / "skills/pdf", lib / "pdf")
    entry = {"source": source.as_uri(), "sourceType": "git", "computedHash": _hash(lib / "pdf")}
    if ref:
        entry["ref"] = ref
    lock = {"version": 1, "skills": {"pdf": entry}}
    (lib / "skills-lock.json").write_text(json.dumps(lock, indent=2) + "\n")
    commit_all(lib, "npx skills add")
    return source, lib


def test_a_locked_skill_is_followed_and_its_hash_rewritten(tmp_path: Path) -> None:
    for ref in (None, "main"):
        where = tmp_path / (ref or "head")
        where.mkdir()
        source, lib = _npx_library(where, ref)
        rows = json.loads(run_cli("outdated", "--json", "-C", str(lib)).out)["skills"]
        assert [(r["name"], r["from_lock"], r["edited_locally"]) for r in rows] == [
            ("pdf", True, False)
        ]
        edit_line(source / "skills/pdf/SKILL.md", "Step 2 of pdf.", "Step 2 of pdf, upstream.")
        commit_all(source, "upstream edit")
        edit_line(lib / "pdf/SKILL.md", "Step 8 of pdf.", "Step 8 of pdf, mine.")
        git("commit", "--quiet", "-am", "mine", cwd=lib)
        result = run_cli("update", "-C", str(lib))
        assert result.code == 0, result
        text = (lib / "pdf/SKILL.md").read_text()
        assert "Step 2 of pdf, upstream." in text and "Step 8 of pdf, mine." in text
        lock = json.loads((lib / "skills-lock.json").read_text())
        assert lock["skills"]["pdf"]["computedHash"] == _hash(lib / "pdf")
        assert lock["skills"]["pdf"].get("ref") == ref
        changed = git("show", "--name-only", "--format=", "HEAD", cwd=lib).stdout.split()
        assert "skills-lock.json" in changed and "pdf/SKILL.md" in changed


def test_a_lock_with_conflict_markers_is_refused(tmp_path: Path) -> None:
    _, lib = _npx_library(tmp_path, None)
    text = (lib / "skills-lock.json").read_text()
    (lib / "skills-lock.json").write_text("<<<<<<< ours\n" + text + "=======\n{}\n>>>>>>> theirs\n")
    commit_all(lib, "a bad merge")
    before = head(lib)
    for command in ("outdated", "update"):
        result = run_cli(command, "-C", str(lib))
        assert result.code == 1 and "conflict markers" in result.err, (command, result)
        assert "Traceback" not in result.err
    assert head(lib) == before


def test_github_sources_of_the_lock_are_https_urls() -> None:
    assert _url("anthropics/skills", "github") == "https://github.com/anthropics/skills.git"
    assert _url("./vendor/skills", "local") is None


def test_after_a_conflict_is_fixed_the_merge_rewrites_the_hash(tmp_path: Path) -> None:
    source, lib = _npx_library(tmp_path, None)
    branch = conflict_fixed_upstream_way(source, lib)
    git("switch", "--quiet", "main", cwd=lib)
    result = run_cli("merge", branch, "-C", str(lib))
    assert result.code == 0, result
    lock = json.loads((lib / "skills-lock.json").read_text())
    assert lock["skills"]["pdf"]["computedHash"] == _hash(lib / "pdf")
    assert git("status", "--porcelain", cwd=lib).stdout == ""

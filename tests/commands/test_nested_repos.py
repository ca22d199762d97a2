"""A skill folder that is a repository of its own (a nested clone, a `.git` file, a
submodule) is never skipped silently: validate, init and list name it; archive and merge
refuse rather than strand its history."""

from __future__ import annotations

import json
from pathlib import Path

from support.repos import git, run_cli, write_skill

NOT_COMMITTED = "not committed: nested repository"


def _library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    write_skill(root, "plain")
    write_skill(root, "cloned")
    git("init", "-q", cwd=root / "cloned")
    write_skill(root, "devops/worktree")
    (root / "devops/worktree/.git").write_text("gitdir: /somewhere/else\n")
    write_skill(root, "ignored")
    git("init", "-q", cwd=root / "ignored")
    (root / ".gitignore").write_text("ignored/\n")
    return root


def test_validate_init_and_list_name_each_nested_repository(tmp_path: Path) -> None:
    root = _library(tmp_path)
    checked = run_cli("validate", "-C", str(root))
    assert checked.code == 1  # not a repository yet
    made = run_cli("init", str(root))
    assert made.code == 0, made
    assert "committed 1 skill" in made.out
    assert "not committed: 2 nested repositories" in made.out
    for folder in ("cloned", "devops/worktree"):
        assert f"warning: {folder}/: {NOT_COMMITTED}" in made.err
    assert "ignored/" not in made.err  # ignored on purpose: nothing to say
    assert git("ls-files", cwd=root).stdout.split() == [
        ".gitcurator.yaml",
        ".gitignore",
        "plain/SKILL.md",
    ]
    doc = json.loads(run_cli("validate", "-C", str(root), "--json").out)
    assert [(f["path"], f["rule"], f["level"]) for f in doc["findings"]] == [
        ("cloned", "nested-repository", "warning"),
        ("devops/worktree", "nested-repository", "warning"),
    ]
    only = json.loads(run_cli("validate", "-C", str(root), "--json", str(root / "devops")).out)
    assert [f["path"] for f in only["findings"]] == ["devops/worktree"]
    listed = run_cli("list", "-C", str(root))
    assert listed.code == 0
    assert f"warning: cloned/: {NOT_COMMITTED}" in listed.err
    again = run_cli("init", str(root))
    assert "nothing to do" in again.out and f"cloned/: {NOT_COMMITTED}" in again.err


def test_a_submodule_is_reported_by_list_and_validate(tmp_path: Path) -> None:
    upstream = tmp_path / "upstream"
    write_skill(upstream, "shared")
    git("init", "-q", cwd=upstream)
    git("add", ".", cwd=upstream)
    git("commit", "-qm", "shared", cwd=upstream)
    root = tmp_path / "lib"
    write_skill(root, "plain")
    assert run_cli("init", str(root), "--quiet").code == 0
    git(
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        str(upstream),
        "vendor",
        cwd=root,
    )
    git("commit", "-qm", "vendor skills as a submodule", cwd=root)
    listed = run_cli("list", "-C", str(root))
    assert f"warning: vendor/: {NOT_COMMITTED}" in listed.err
    checked = run_cli("validate", "-C", str(root))
    assert checked.code == 0 and f"vendor: warning: {NOT_COMMITTED}" in checked.out


def test_archive_and_merge_refuse_to_strand_a_nested_repository(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    write_skill(root, "pdf-extract")
    assert run_cli("init", str(root), "--quiet").code == 0
    # A person clones or inits inside a skill that is already committed.
    git("init", "-q", cwd=root / "pdf-extract")
    git("add", ".", cwd=root / "pdf-extract")
    git("commit", "-qm", "inner history", cwd=root / "pdf-extract")
    refused = run_cli("archive", "pdf-extract", "-C", str(root))
    assert refused.code == 1
    assert "pdf-extract holds a nested repository (its own .git)" in refused.err
    assert run_cli("track", "pdf-extract", "--origin", "agent", "-C", str(root)).code == 0
    assert run_cli("run", "--now", "2036-01-01T00:00:00Z", "-C", str(root)).code == 0
    merged = run_cli("merge", "-C", str(root))
    assert merged.code == 1 and "holds a nested repository" in merged.err
    assert git("log", "--format=%s", cwd=root / "pdf-extract").stdout == "inner history\n"
    assert (root / "pdf-extract/SKILL.md").exists()
    assert git("status", "--porcelain", cwd=root).stdout == ""
    # With the nested .git moved away, the merge goes through.
    (root / "pdf-extract/.git").rename(tmp_path / "inner.git")
    assert run_cli("merge", "-C", str(root)).code == 0
    assert (root / ".archive/pdf-extract/SKILL.md").exists()

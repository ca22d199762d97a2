"""`gitcurator add`: listing a source, copying skills with their provenance, refusing what
must not come in."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.repos import git, run_cli
from support.upstream import (
    commit_all,
    forged_source,
    fsck,
    git_daemon,
    head,
    make_library,
    make_source,
)


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
    assert shown["upstream"]["commit"] == upstream and shown["upstream"]["path"] == "skills/pdf"
    assert "upstream " in run_cli("show", "pdf", "-C", str(lib)).out
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


def _hostile(tmp_path: Path) -> tuple[Path, Path]:
    source, lib = make_source(tmp_path, ("pdf", "links", "big", "sub")), make_library(tmp_path)
    (source / "skills/links/secret").symlink_to("../../../etc/passwd")
    (source / "skills/big/data.bin").write_bytes(b"\0" * (100 * 1024 * 1024))
    commit_all(source, "hostile")
    # A submodule: a gitlink entry in the tree, as `git submodule add` records it.
    sha = head(source)
    git("update-index", "--add", "--cacheinfo", f"160000,{sha},skills/sub/vendor", cwd=source)
    git("commit", "--quiet", "-m", "submodule", cwd=source)
    return source, lib


def test_hostile_sources_are_refused_and_nothing_changes(tmp_path: Path) -> None:
    source, lib = _hostile(tmp_path)
    before = head(lib)
    link = run_cli("add", str(source), "links", "-C", str(lib))
    assert link.code == 1 and "links/secret" in link.err and "nothing was changed" in link.err
    big = run_cli("add", str(source), "big", "-C", str(lib))
    assert big.code == 1 and "100.0 MB" in big.err and "10.0 MB" in big.err
    sub = run_cli("add", str(source), "sub", "-C", str(lib))
    assert sub.code == 1 and "submodule" in sub.err
    assert head(lib) == before
    assert not (lib / "links").exists() and not (lib / "big").exists()
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0


def test_names_that_are_not_skill_names_and_unknown_names(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    unknown = run_cli("add", str(source), "nope", "-C", str(lib))
    assert unknown.code == 1 and "offers no skill named nope" in unknown.err
    for bad in ("../x", ".git", "a/b"):
        result = run_cli("add", str(source), "pdf", "--as", bad, "-C", str(lib))
        assert result.code == 2, (bad, result)
    assert run_cli("add", str(source), "pdf", "xlsx", "--as", "z", "-C", str(lib)).code == 2


def test_a_dirty_work_tree_in_the_way_is_refused(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    (lib / "pdf").mkdir()
    (lib / "pdf/SKILL.md").write_text("mine, untracked\n")
    result = run_cli("add", str(source), "pdf", "-C", str(lib))
    assert result.code == 1 and "untracked" in result.err, result
    assert (lib / "pdf/SKILL.md").read_text() == "mine, untracked\n"


def test_a_skill_failing_validation_is_refused_with_the_findings(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    (source / "skills/pdf/SKILL.md").write_text("---\nname: pdf\n---\nno description\n")
    commit_all(source, "broken")
    result = run_cli("add", str(source), "pdf", "-C", str(lib))
    assert result.code == 1 and "pdf/SKILL.md" in result.err and "nothing was changed" in result.err


def test_shorthand_and_local_paths_are_told_apart(tmp_path: Path) -> None:
    from gitcurator.upstream.source_spec import expand_source, is_path, shown_source

    assert expand_source("anthropics/skills") == "https://github.com/anthropics/skills.git"
    assert shown_source("https://github.com/anthropics/skills.git") == "anthropics/skills"
    assert is_path("./anthropics/skills") and is_path("../x") and is_path("/abs/path")
    assert not is_path("anthropics/skills") and not is_path("git@github.com:a/b.git")
    make_source(tmp_path)
    lib = make_library(tmp_path)
    result = run_cli("add", "./upstream", "pdf", "-C", str(lib), cwd=tmp_path)
    assert result.code == 0, result


def test_git_log_reads_every_commit_and_trailer(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    assert run_cli("add", str(source), "pdf", "xlsx", "-C", str(lib)).code == 0
    out = git("log", "-1", "--format=%(trailers:key=Skill-Source,valueonly)", cwd=lib).stdout
    assert len([ln for ln in out.splitlines() if ln.strip()]) == 2
    added = git("log", "-1", "--format=%(trailers:key=Skill-Added,valueonly)", cwd=lib).stdout
    assert added.split() == ["pdf", "xlsx"]


def test_path_and_a_pinned_commit(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    first = head(source)
    (source / "skills/pdf/SKILL.md").write_text(
        (source / "skills/pdf/SKILL.md").read_text() + "\nLater.\n"
    )
    commit_all(source, "later")
    (source / "other").mkdir()
    listing = json.loads(
        run_cli("add", str(source), "--path", "skills", "--json", "-C", str(lib)).out
    )
    assert [s["name"] for s in listing["skills"]] == ["pdf", "xlsx"]
    missing = run_cli("add", str(source), "--path", "nowhere", "-C", str(lib))
    assert missing.code == 1 and "no folder 'nowhere'" in missing.err
    pinned = run_cli("add", str(source), "pdf", "--ref", first, "-C", str(lib))
    assert pinned.code == 0, pinned
    assert "Later." not in (lib / "pdf/SKILL.md").read_text()
    assert (
        f"@{first} path=skills/pdf ref={first}" in git("log", "-1", "--format=%B", cwd=lib).stdout
    )


def test_a_skill_the_lock_lists_gets_its_hash_in_the_same_commit(tmp_path: Path) -> None:
    from gitcurator.upstream.skills_lock import computed_hash

    source, lib = make_source(tmp_path), make_library(tmp_path)
    lock = {
        "version": 1,
        "skills": {"pdf": {"source": "o/r", "sourceType": "github", "computedHash": "0" * 64}},
    }
    (lib / "skills-lock.json").write_text(json.dumps(lock, indent=2) + "\n")
    commit_all(lib, "lock")
    assert run_cli("add", str(source), "pdf", "-C", str(lib)).code == 0
    files = {
        p.relative_to(lib / "pdf").as_posix(): p.read_bytes()
        for p in (lib / "pdf").rglob("*")
        if p.is_file()
    }
    written = json.loads((lib / "skills-lock.json").read_text())
    assert written["skills"]["pdf"]["computedHash"] == computed_hash(files)
    assert "skills-lock.json" in git("show", "--name-only", "--format=", "HEAD", cwd=lib).stdout


def test_a_shorthand_that_fails_names_the_local_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitcurator.upstream import source_spec

    lib = make_library(tmp_path)
    (tmp_path / "hub/o/r.git").mkdir(parents=True)  # GitHub stand-in: not a repository
    monkeypatch.setattr(source_spec, "GITHUB_URL", str(tmp_path / "hub/{}.git"))
    (tmp_path / "o/r").mkdir(parents=True)
    result = run_cli("add", "o/r", "-C", str(lib), cwd=tmp_path)
    assert result.code == 1 and "write ./o/r" in result.err, result


def _tree_with_dotdot(source: Path) -> str:
    """A commit whose skill folder holds `../evil`: git refuses to make one, so dulwich writes
    the objects (a hostile server could send them)."""
    from dulwich.objects import Blob, Commit, Tree
    from dulwich.repo import Repo

    with Repo(str(source)) as repo:
        store = repo.object_store
        skill_md = Blob.from_string((source / "skills/pdf/SKILL.md").read_bytes())
        evil = Blob.from_string(b"escaped\n")
        up = Tree()
        up.add(b"evil", 0o100644, evil.id)
        folder = Tree()
        folder.add(b"SKILL.md", 0o100644, skill_md.id)
        folder.add(b"..", 0o040000, up.id)
        skills = Tree()
        skills.add(b"pdf", 0o040000, folder.id)
        root = Tree()
        root.add(b"skills", 0o040000, skills.id)
        for obj in (skill_md, evil, up, folder, skills, root):
            store.add_object(obj)
        commit = Commit()
        commit.tree = root.id
        commit.parents = [repo.head()]
        commit.author = commit.committer = b"x <x@example.com>"
        commit.author_time = commit.commit_time = 1_700_000_000
        commit.author_timezone = commit.commit_timezone = 0
        commit.message = b"hostile\n"
        store.add_object(commit)
        repo.refs[b"refs/heads/main"] = commit.id
        return commit.id.decode()


def test_a_dotdot_path_in_the_source_tree_is_refused(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    _tree_with_dotdot(source)
    result = run_cli("add", str(source), "pdf", "-C", str(lib))
    assert result.code == 1 and "'..'" in result.err and "nothing was changed" in result.err
    assert not (tmp_path / "evil").exists() and not (lib / "evil").exists()
    assert git("status", "--porcelain", cwd=lib).stdout == ""


def test_an_annotated_tag_as_ref(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    tagged = head(source)
    git("tag", "-a", "v1", "-m", "release 1", cwd=source)
    (source / "skills/pdf/SKILL.md").write_text(
        (source / "skills/pdf/SKILL.md").read_text() + "\nAfter v1.\n"
    )
    commit_all(source, "after the tag")
    assert run_cli("add", str(source), "pdf", "--ref", "v1", "-C", str(lib)).code == 0
    assert "After v1." not in (lib / "pdf/SKILL.md").read_text()
    assert f"@{tagged} path=skills/pdf ref=v1" in git("log", "-1", "--format=%B", cwd=lib).stdout
    gone = run_cli("add", str(source), "xlsx", "--ref", "v9", "-C", str(lib))
    assert gone.code == 1 and "no branch, tag or commit v9" in gone.err


def test_a_folder_or_file_of_that_name_that_is_no_skill_is_never_mixed_into(
    tmp_path: Path,
) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    (lib / "xlsx").mkdir()
    (lib / "xlsx/data.txt").write_text("mine\n")
    (lib / "pdf").write_text("a file, not a folder\n")
    git("add", "-A", cwd=lib)
    git("commit", "--quiet", "-m", "data", cwd=lib)
    before = head(lib)
    folder = run_cli("add", str(source), "xlsx", "-C", str(lib))
    assert folder.code == 1 and "a folder xlsx/" in folder.err and "--as" in folder.err, folder
    file = run_cli("add", str(source), "pdf", "-C", str(lib))
    assert file.code == 1 and "a file pdf" in file.err, file
    assert head(lib) == before and sorted(os.listdir(lib / "xlsx")) == ["data.txt"]
    assert run_cli("add", str(source), "xlsx", "--as", "sheets", "-C", str(lib)).code == 0


def test_a_forged_tree_entry_holding_a_slash_is_refused(tmp_path: Path) -> None:
    lib = make_library(tmp_path)
    source = forged_source(tmp_path / "forged.git", "evil", {b"a/b": (0o100644, b"x")})
    before = head(lib)
    result = run_cli("add", str(source), "evil", "-C", str(lib))
    assert result.code == 1 and "'a/b'" in result.err and "fullPathname" in result.err, result
    assert head(lib) == before and not (lib / "evil").exists()
    # Nothing keeps the forged commit reachable (its objects stay until `git gc --prune`).
    assert git("for-each-ref", "refs/gitcurator/sources/", cwd=lib).stdout == ""


def test_the_listing_is_one_line_per_skill_whatever_its_folder_is_called(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path), make_library(tmp_path)
    (source / "skills/odd\nname").mkdir()
    (source / "skills/odd\nname/SKILL.md").write_text(
        "---\nname: odd\ndescription: Use when\tx.\n---\n"
    )
    commit_all(source, "odd")
    result = run_cli("add", str(source), "-C", str(lib))
    lines = result.out.splitlines()
    assert result.code == 0 and len(lines) == 5, lines
    assert any(line.startswith("odd\\x0aname  Use when x.") for line in lines), lines


def test_a_name_that_differs_from_a_skill_here_only_in_case_is_refused(tmp_path: Path) -> None:
    source, lib = make_source(tmp_path, ("PDF",)), make_library(tmp_path)
    result = run_cli("add", str(source), "PDF", "--as", "Notes", "-C", str(lib))
    assert result.code == 1 and "a folder notes/" in result.err and "case" in result.err, result

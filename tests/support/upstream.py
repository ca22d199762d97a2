"""Builders for upstream tests: a source repository of skills edited commit by commit with real
git, and a library that adds from it (sources are served by `support.git_daemon`)."""

from __future__ import annotations

from pathlib import Path

from support.git_daemon import git_daemon
from support.repos import git, run_cli, write_skill

__all__ = [
    "commit_all",
    "conflict_fixed_upstream_way",
    "edit_line",
    "forged_source",
    "fsck",
    "git_daemon",
    "head",
    "make_library",
    "make_source",
]

SKILL_BODY = """\
---
name: {name}
description: Use when a task needs {name}.
---

# {name}

{lines}
"""


def skill_text(name: str, lines: list[str]) -> str:
    """A valid SKILL.md for `name` whose body is `lines`."""
    return SKILL_BODY.format(name=name, lines="\n".join(lines))


def default_lines(name: str) -> list[str]:
    """Ten distinct body lines, so edits of different lines merge cleanly."""
    return [f"Step {i} of {name}." for i in range(1, 11)]


def make_source(
    tmp_path: Path, names: tuple[str, ...] = ("pdf", "xlsx"), sub: str = "skills"
) -> Path:
    """A work-tree repository (the upstream) holding skills under `sub`/, one commit."""
    source = tmp_path / "upstream"
    source.mkdir(parents=True)
    git("init", "--quiet", "-b", "main", cwd=source)
    for name in names:
        write_skill(source / sub, name, body=skill_text(name, default_lines(name)))
    commit_all(source, "first skills")
    return source


def commit_all(repo: Path, message: str) -> str:
    """`git add -A` and commit; the new commit id."""
    git("add", "-A", cwd=repo)
    git("commit", "--quiet", "--allow-empty", "-m", message, cwd=repo)
    return head(repo)


def head(repo: Path, rev: str = "HEAD") -> str:
    """A commit id, by real git."""
    return git("rev-parse", rev, cwd=repo).stdout.strip()


def edit_line(path: Path, old: str, new: str) -> None:
    """Replace one line's text in a file."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def make_library(tmp_path: Path) -> Path:
    """A skills repository with one skill of its own (`notes`)."""
    lib = tmp_path / "library"
    write_skill(lib, "notes")
    assert run_cli("init", str(lib), "--quiet").code == 0
    return lib


def fsck(repo: Path) -> None:
    """`git fsck --strict` finds nothing wrong."""
    result = git("fsck", "--strict", "--no-dangling", cwd=repo, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def conflict_fixed_upstream_way(source: Path, lib: Path) -> str:
    """Both sides change pdf's step 4, `update` leaves the review branch, and a person takes
    upstream's version there (the work tree stays on that branch): the branch's name."""
    edit_line(source / "skills/pdf/SKILL.md", "Step 4 of pdf.", "Step 4, upstream's way.")
    commit_all(source, "upstream edit")
    edit_line(lib / "pdf/SKILL.md", "Step 4 of pdf.", "Step 4, my way.")
    git("commit", "--quiet", "-am", "my edit", cwd=lib)
    assert run_cli("update", "-C", str(lib)).code == 1
    listed = git("branch", "--list", "update/*", "--format=%(refname:short)", cwd=lib)
    branch = listed.stdout.strip()
    git("switch", "--quiet", branch, cwd=lib)
    (lib / "pdf/SKILL.md").write_text((source / "skills/pdf/SKILL.md").read_text())
    git("commit", "--quiet", "-am", "take theirs", cwd=lib)
    return branch


def forged_source(path: Path, name: str, entries: dict[bytes, tuple[int, bytes]]) -> Path:
    """A bare source, written object by object (git itself would refuse to make it), whose one
    commit holds the skill `name` with a valid SKILL.md plus `entries` (raw name -> mode, data)."""
    from dulwich.objects import Blob, Commit, Tree
    from dulwich.repo import Repo

    with Repo.init_bare(str(path), mkdir=True) as repo:
        store = repo.object_store
        skill, root = Tree(), Tree()
        for raw, (mode, data) in {
            b"SKILL.md": (0o100644, skill_text(name, ["x"]).encode()),
            **entries,
        }.items():
            blob = Blob.from_string(data)
            store.add_object(blob)
            skill.add(raw, mode, blob.id)
        store.add_object(skill)
        root.add(name.encode(), 0o040000, skill.id)
        store.add_object(root)
        commit = Commit()
        commit.tree, commit.message = root.id, b"forged\n"
        commit.author = commit.committer = b"x <x@example.com>"
        commit.author_time = commit.commit_time = commit.author_timezone = 0
        commit.commit_timezone = 0
        store.add_object(commit)
        repo.refs[b"refs/heads/main"] = commit.id
    return path

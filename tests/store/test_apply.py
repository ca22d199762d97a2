"""store.apply: file-level three-way merges and reverts, work-tree sync, dirty checks."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.repos import git, write_skill

from gitcurator.errors import StoreError
from gitcurator.store import Store, apply, graph


def _commit(repo: Path, message: str = "change") -> str:
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--allow-empty", "-m", message, cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo).stdout.strip()


def _tree(repo: Path, rev: str) -> bytes:
    return git("rev-parse", f"{rev}^{{tree}}", cwd=repo).stdout.strip().encode()


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    """A git repository (real git) with three skills and a support file."""
    root = tmp_path / "lib"
    root.mkdir()
    git("init", "-q", "-b", "main", cwd=root)
    write_skill(root, "alpha")
    write_skill(root, "beta")
    write_skill(root, "devops/gamma")
    (root / "beta" / "references").mkdir()
    (root / "beta" / "references" / "notes.md").write_text("notes\n")
    _commit(root, "start")
    return root


@pytest.fixture
def store(lib: Path) -> Iterator[Store]:
    with Store.discover(lib) as s:
        yield s


def _branches(lib: Path, ours: str, theirs: str) -> tuple[bytes, bytes, bytes]:
    """Run shell snippets on two branches from main; (base, ours, theirs) trees."""
    base = _tree(lib, "main")
    git("checkout", "-q", "-b", "theirs", cwd=lib)
    os.system(f"cd '{lib}' && {theirs}")
    _commit(lib, "theirs")
    git("checkout", "-q", "main", cwd=lib)
    os.system(f"cd '{lib}' && {ours}")
    _commit(lib, "ours")
    return base, _tree(lib, "main"), _tree(lib, "theirs")


ARCHIVE_BETA = "mkdir -p .archive && git mv beta .archive/beta"


@pytest.mark.parametrize(
    ("ours", "conflicts"),
    [
        ("echo more >> beta/SKILL.md", ["beta/SKILL.md"]),
        ("git rm -q beta/SKILL.md", ["beta/SKILL.md"]),
        ("git rm -rq beta", ["beta/SKILL.md", "beta/references/notes.md"]),
        ("echo new > beta/references/new.md", ["beta/references/new.md"]),
        ("chmod +x beta/references/notes.md", ["beta/references/notes.md"]),
    ],
    ids=["edit", "delete-file", "delete-skill", "add-file", "chmod"],
)
def test_a_persons_change_inside_a_folder_the_other_side_moved_is_a_conflict_naming_it(
    lib: Path, store: Store, ours: str, conflicts: list[str]
) -> None:
    base, mine, theirs = _branches(lib, ours, ARCHIVE_BETA)
    result = apply.three_way(store, base, mine, theirs)
    assert result.tree is None
    assert list(result.conflicts) == conflicts


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("echo more >> alpha/SKILL.md", ARCHIVE_BETA),
        ("mkdir -p x && echo new > x/file.md", ARCHIVE_BETA),
        ("git rm -rq devops", ARCHIVE_BETA),
        (ARCHIVE_BETA, ARCHIVE_BETA),  # the same move on both sides
        ("echo same >> alpha/SKILL.md", "echo same >> alpha/SKILL.md"),
        ("ln -s ../alpha/SKILL.md devops/link", "chmod +x beta/references/notes.md"),
    ],
    ids=["unrelated-edit", "new-folder", "unrelated-removal", "same-move", "same-edit", "modes"],
)
def test_clean_merges_give_the_tree_git_gives(
    lib: Path, store: Store, ours: str, theirs: str
) -> None:
    base, mine, other = _branches(lib, ours, theirs)
    result = apply.three_way(store, base, mine, other)
    assert result.conflicts == ()
    expected = git("merge-tree", "--write-tree", "main", "theirs", cwd=lib).stdout.split()[0]
    assert result.tree == expected.encode()


def test_a_folder_becoming_a_file_on_one_side_and_growing_on_the_other_conflicts(
    lib: Path, store: Store
) -> None:
    base, mine, theirs = _branches(
        lib, "echo x > alpha/extra.md", "git rm -rq alpha && echo file > alpha"
    )
    result = apply.three_way(store, base, mine, theirs)
    assert "alpha/extra.md" in result.conflicts


def test_revert_undoes_a_move_and_refuses_when_the_moved_file_changed_since(
    lib: Path, store: Store
) -> None:
    before = _tree(lib, "HEAD")
    os.system(f"cd '{lib}' && {ARCHIVE_BETA}")
    moved = _commit(lib, "archive beta").encode()
    (lib / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: d\n---\nedited\n")
    _commit(lib, "unrelated")
    undone = apply.revert_tree(store, moved, _tree(lib, "HEAD"))
    assert undone.tree is not None
    alpha = git("rev-parse", "HEAD:alpha", cwd=lib).stdout.strip()
    assert git("rev-parse", f"{undone.tree.decode()}:alpha", cwd=lib).stdout.strip() == alpha
    assert git("rev-parse", f"{undone.tree.decode()}:beta", cwd=lib).stdout.strip() == (
        git("rev-parse", f"{before.decode()}:beta", cwd=lib).stdout.strip()
    )
    (lib / ".archive" / "beta" / "SKILL.md").write_text("edited in the archive\n")
    _commit(lib, "edit the archived copy")
    blocked = apply.revert_tree(store, moved, _tree(lib, "HEAD"))
    assert blocked.tree is None and blocked.conflicts == (".archive/beta/SKILL.md",)
    with pytest.raises(StoreError, match="merge or a root"):
        apply.revert_tree(
            store,
            git("rev-list", "--max-parents=0", "HEAD", cwd=lib).stdout.strip().encode(),
            _tree(lib, "HEAD"),
        )


def test_sync_worktree_writes_only_what_changed_with_modes_and_links(
    lib: Path, store: Store
) -> None:
    old = _tree(lib, "HEAD")
    keep = lib / "devops" / "gamma" / "SKILL.md"
    keep_stat = os.stat(keep)
    git("checkout", "-q", "-b", "other", cwd=lib)
    os.system(f"cd '{lib}' && {ARCHIVE_BETA}")
    (lib / "alpha" / "run.sh").write_text("#!/bin/sh\n")
    (lib / "alpha" / "run.sh").chmod(0o755)
    (lib / "alpha" / "link").symlink_to("run.sh")
    _commit(lib, "changes")
    new = _tree(lib, "HEAD")
    git("checkout", "-q", "main", cwd=lib)
    git("symbolic-ref", "HEAD", "refs/heads/other", cwd=lib)  # as if the ref had moved
    apply.sync_worktree(store, old, new)
    assert not (lib / "beta").exists()  # the emptied folder went too
    assert (lib / ".archive" / "beta" / "references" / "notes.md").read_text() == "notes\n"
    assert os.stat(lib / "alpha" / "run.sh").st_mode & stat.S_IXUSR
    assert os.readlink(lib / "alpha" / "link") == "run.sh"
    assert os.stat(keep).st_ino == keep_stat.st_ino and os.stat(keep).st_mtime_ns == (
        keep_stat.st_mtime_ns
    )
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    assert apply.dirty_paths(store) == []


def test_dirty_paths_sees_staged_unstaged_mode_and_deleted_changes(lib: Path, store: Store) -> None:
    assert apply.dirty_paths(store) == []
    (lib / "alpha" / "SKILL.md").write_text("changed\n")
    (lib / "beta" / "references" / "notes.md").chmod(0o755)
    (lib / "devops" / "gamma" / "SKILL.md").unlink()
    (lib / "staged.md").write_text("new\n")
    git("add", "staged.md", cwd=lib)
    (lib / "untracked.md").write_text("not ours to judge\n")
    assert apply.dirty_paths(store) == [
        "alpha/SKILL.md",
        "beta/references/notes.md",
        "devops/gamma/SKILL.md",
        "staged.md",
    ]
    assert apply.dirty_paths(store, {"beta"}) == ["beta/references/notes.md"]
    assert apply.dirty_paths(store, {"devops"}) == ["devops/gamma/SKILL.md"]


def test_a_same_size_edit_right_after_the_index_was_written_is_seen(
    lib: Path, store: Store
) -> None:
    path = lib / "alpha" / "SKILL.md"
    data = path.read_bytes()
    git("update-index", "--refresh", cwd=lib)
    path.write_bytes(data.replace(b"Steps", b"STEPS"))  # same size, same second
    assert apply.dirty_paths(store) == ["alpha/SKILL.md"]


def test_in_the_way_names_untracked_files_a_move_would_overwrite_or_strand(
    lib: Path, store: Store
) -> None:
    base, _mine, theirs = _branches(lib, "true", ARCHIVE_BETA)
    assert apply.in_the_way(store, base, theirs) == []
    (lib / ".archive").mkdir()
    (lib / ".archive" / "beta").write_text("a file where a folder goes\n")
    (lib / "beta" / "draft.md").write_text("left behind\n")
    (lib / ".gitignore").write_text("*.pyc\n")
    (lib / "beta" / "cache.pyc").write_text("ignored\n")
    assert apply.in_the_way(store, base, theirs) == [".archive/beta", "beta/draft.md"]


def test_advance_branch_moves_nothing_when_the_branch_moved_meanwhile(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = git("rev-parse", "HEAD", cwd=lib).stdout.strip().encode()
    os.system(f"cd '{lib}' && git checkout -q -b side && {ARCHIVE_BETA}")
    new = _commit(lib, "archive").encode()
    git("checkout", "-q", "main", cwd=lib)
    other = _commit(lib, "someone else").encode()  # main moved past `old`
    with pytest.raises(StoreError, match="moved"):
        apply.advance_branch(store, "main", old, new, "test")
    assert git("rev-parse", "main", cwd=lib).stdout.strip().encode() == other
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    # The ref moving between the work-tree update and the swap: the work tree goes back.
    real = store.repo.refs.set_if_equals
    monkeypatch.setattr(store.repo.refs, "set_if_equals", lambda *a, **k: False)
    with pytest.raises(StoreError, match="nothing was changed"):
        apply.advance_branch(store, "main", other, new, "test")
    monkeypatch.setattr(store.repo.refs, "set_if_equals", real)
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    assert (lib / "beta" / "SKILL.md").exists()


def test_merge_bases_and_ancestry_ignore_commit_times(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Passes and merges often share a second; dulwich's time-ordered merge-base then
    answered wrongly. Every commit here has the same time; git is the reference."""
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, "@1767225600 +0000")
    start = git("rev-parse", "HEAD", cwd=lib).stdout.strip()
    for n in range(1, 4):
        git("checkout", "-q", "-b", f"b{n}", start, cwd=lib)
        for part in ("a", "b"):  # a pass: archive, then report
            (lib / f"f{n}{part}").write_text(f"{n}\n")
            _commit(lib, f"b{n}{part}")
    git("checkout", "-q", "main", cwd=lib)
    pairs = [("b1", "b2"), ("b2", "b1"), ("b3", "b1")]
    git("merge", "-q", "--ff-only", "b1", cwd=lib)
    git("merge", "-q", "--no-ff", "-m", "merge b2", "b2", cwd=lib)
    git("checkout", "-q", "-b", "side", "b3", cwd=lib)
    git("merge", "-q", "--no-ff", "-m", "merge b1", "b1", cwd=lib)

    def rev(name: str) -> bytes:
        return git("rev-parse", name, cwd=lib).stdout.strip().encode()

    pairs += [("b2", "main"), ("b3", "main"), ("side", "main"), ("main", "side"), ("b1", "b1")]
    for a, b in pairs:
        expected = sorted(git("merge-base", "--all", a, b, cwd=lib).stdout.split())
        assert [x.decode() for x in graph.merge_bases(store, rev(a), rev(b))] == expected
    merged = graph.ancestors(store, [rev("main")])
    assert {rev("b1"), rev("b2"), rev(start)} <= merged and rev("b3") not in merged
    own = graph.commits_between(store, rev("side"), merged)
    assert [c.message.strip() for c in own] == ["merge b1", "b3b", "b3a"]

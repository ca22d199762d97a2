"""store.history: the cached walk over real repositories (made with git) and what it folds to."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.repos import write_skill

from gitcurator.audit import trailers
from gitcurator.lifecycle.skill_history import EMPTY, CommitChanges, SkillHistory
from gitcurator.skills.document import find_skills
from gitcurator.store import Store
from gitcurator.store import history as store_history
from gitcurator.store.diff import TreeDiffer

RUN = f"{trailers.RUN}: 20260101-000000"


def git_at(root: Path, day: int, *args: str) -> str:
    """Run git with author and committer time fixed at day `day` of January 2026, noon UTC."""
    stamp = f"2026-01-{day:02d}T12:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    done = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def noon(day: int) -> str:
    return f"2026-01-{day:02d}T12:00:00Z"


def commit_all(root: Path, day: int, message: str) -> str:
    git_at(root, day, "add", "-A")
    git_at(root, day, "commit", "-q", "-m", message)
    return git_at(root, day, "rev-parse", "HEAD")


def move(root: Path, day: int, source: str, target: str) -> None:
    """`git mv` a folder, making the folders above its new place first."""
    (root / target).parent.mkdir(parents=True, exist_ok=True)
    git_at(root, day, "mv", source, target)


def edit(root: Path, folder: str, text: str) -> None:
    with (root / folder / "SKILL.md").open("a", encoding="utf-8") as f:
        f.write(text + "\n")


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    """A git repository with skills a and cat/b created on day 1 and nothing else yet."""
    root = tmp_path / "lib"
    root.mkdir()
    git_at(root, 1, "init", "-q", "-b", "main")
    write_skill(root, "a")
    write_skill(root, "cat/b")
    commit_all(root, 1, "Add a and b")
    return root


def histories(root: Path) -> dict[str, SkillHistory]:
    with Store.discover(root) as store:
        folders = {loc.folder: loc.dirname for loc in find_skills(store.head_paths())}
        return store_history.skill_histories(store, folders)


@pytest.fixture
def diffs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the tree diffs the store makes (one per commit, one per parent of a merge)."""
    calls = [0]

    class Counting(TreeDiffer):
        def diff(self, *args: Any) -> Any:
            calls[0] += 1
            return super().diff(*args)

    monkeypatch.setattr(store_history, "TreeDiffer", Counting)
    yield calls


def test_edit_archive_restore(skills: Path) -> None:
    edit(skills, "a", "edited")
    commit_all(skills, 2, "Improve a")
    move(skills, 3, "a", ".archive/a")
    git_at(skills, 3, "commit", "-q", "-m", f"Archive a\n\n{RUN}\nCurator-Archived: a")
    move(skills, 4, ".archive/a", "a")
    git_at(skills, 4, "commit", "-q", "-m", f"Restore a\n\n{RUN}\nCurator-Restored: a")
    assert histories(skills) == {
        "a": SkillHistory(noon(1), 2, noon(4)),
        "b": SkillHistory(noon(1), 0, None),
    }


def test_archived_skill_keeps_its_history(skills: Path) -> None:
    edit(skills, "cat/b", "edited")
    commit_all(skills, 2, "Improve b")
    move(skills, 3, "cat/b", ".archive/cat/b")
    git_at(skills, 3, "commit", "-q", "-m", f"Archive b\n\n{RUN}")
    assert histories(skills)["b"] == SkillHistory(noon(1), 1, noon(2))


def test_merges_count_the_branch_commits_once(skills: Path) -> None:
    git_at(skills, 2, "checkout", "-q", "-b", "person")
    edit(skills, "a", "on a branch")
    commit_all(skills, 2, "Improve a on a branch")
    git_at(skills, 3, "checkout", "-q", "-b", "curator/r1", "main")
    move(skills, 3, "cat/b", ".archive/cat/b")
    git_at(skills, 3, "commit", "-q", "-m", f"Archive b\n\n{RUN}")
    git_at(skills, 4, "checkout", "-q", "main")
    edit(skills, "cat/b", "on main")
    commit_all(skills, 4, "Improve b on main")
    git_at(skills, 5, "merge", "-q", "--no-ff", "-m", "Merge person", "person")
    git_at(skills, 6, "merge", "-q", "--no-ff", "-m", "Merge curator/r1", "curator/r1")
    assert histories(skills) == {
        # a: the branch commit only, not again for the merge that brought it in
        "a": SkillHistory(noon(1), 1, noon(2)),
        # b: the edit on main; the archive move (curator) and its merge are no patches
        "b": SkillHistory(noon(1), 1, noon(4)),
    }


def test_a_merge_that_resolves_a_conflict_patches(skills: Path) -> None:
    git_at(skills, 2, "checkout", "-q", "-b", "person")
    write_skill(skills, "a", body="---\nname: a\ndescription: Theirs.\n---\n")
    commit_all(skills, 2, "Their a")
    git_at(skills, 3, "checkout", "-q", "main")
    write_skill(skills, "a", body="---\nname: a\ndescription: Ours.\n---\n")
    commit_all(skills, 3, "Our a")
    failed = subprocess.run(["git", "merge", "-q", "person"], cwd=skills, capture_output=True)
    assert failed.returncode != 0
    write_skill(skills, "a", body="---\nname: a\ndescription: Both.\n---\n")
    commit_all(skills, 4, "Merge person, keeping both")
    assert histories(skills)["a"] == SkillHistory(noon(1), 3, noon(4))


def test_walk_changes_lists_commits_oldest_first(skills: Path) -> None:
    first = git_at(skills, 1, "rev-parse", "HEAD")
    move(skills, 2, "a", "cat/a")
    git_at(skills, 2, "commit", "-q", "-m", "Move a")
    second = git_at(skills, 2, "rev-parse", "HEAD")
    with Store.discover(skills) as store:
        head = store.head_commit()
        assert head is not None
        walked = store_history.walk_changes(store, head)
        assert [w.commit for w in walked] == [first, second]
        assert walked[0].paths == ("a/SKILL.md", "cat/b/SKILL.md")
        assert walked[1] == CommitChanges(
            second, noon(2), "Move a\n", ("a/SKILL.md", "cat/a/SKILL.md")
        )
        assert store_history.walk_changes(store, head, stop_at={first.encode()}) == walked[1:]


def test_cache_makes_a_new_commit_cost_one_diff(skills: Path, diffs: list[int]) -> None:
    for day in (2, 3, 4):
        edit(skills, "a", f"day {day}")
        commit_all(skills, day, f"Edit a on day {day}")
    assert histories(skills)["a"] == SkillHistory(noon(1), 3, noon(4))
    assert diffs[0] == 4
    assert histories(skills)["a"] == SkillHistory(noon(1), 3, noon(4))
    assert diffs[0] == 4  # nothing new: no diff at all
    edit(skills, "a", "day 5")
    commit_all(skills, 5, "Edit a on day 5")
    assert histories(skills)["a"] == SkillHistory(noon(1), 4, noon(5))
    assert diffs[0] == 5


def test_cache_drops_rewritten_commits(skills: Path, diffs: list[int]) -> None:
    edit(skills, "a", "edited")
    old = commit_all(skills, 2, "Improve a")
    assert histories(skills)["a"] == SkillHistory(noon(1), 1, noon(2))
    # Amend: the edit moves from a to b; the old commit must no longer count for a.
    git_at(skills, 3, "checkout", "-q", "HEAD~1", "--", "a")
    edit(skills, "cat/b", "edited instead")
    git_at(skills, 3, "add", "-A")
    git_at(skills, 3, "commit", "-q", "--amend", "-m", "Improve b")
    diffs[0] = 0
    assert histories(skills) == {
        "a": SkillHistory(noon(1), 0, None),
        "b": SkillHistory(noon(1), 1, noon(3)),
    }
    assert diffs[0] == 1  # the shared root commit came from the cache
    with Store.discover(skills) as store:
        cached = json.loads(store_history.cache_path(store).read_text(encoding="utf-8"))
    assert old not in {entry[0] for entry in cached["commits"]}


def test_unreadable_cache_is_rebuilt(skills: Path, diffs: list[int]) -> None:
    with Store.discover(skills) as store:
        path = store_history.cache_path(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    assert histories(skills)["a"] == SkillHistory(noon(1), 0, None)
    # A cache that lost an ancestor would hide history: it is not trusted either.
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["commits"][0][1] = ["0" * 40]
    path.write_text(json.dumps(doc), encoding="utf-8")
    diffs[0] = 0
    assert histories(skills)["a"] == SkillHistory(noon(1), 0, None)
    assert diffs[0] == 1


def test_paths_that_are_not_utf8_survive_the_cache(skills: Path, diffs: list[int]) -> None:
    (skills / os.fsdecode(b"a/notes-\xff.md")).write_bytes(b"latin-1 name\n")
    commit_all(skills, 2, "Add notes to a")
    with Store.discover(skills) as store:
        for _ in range(2):
            found = store_history.skill_histories(store, {"a": "a", "cat/b": "b"})
            assert found["a"] == SkillHistory(noon(1), 1, noon(2))
    assert diffs[0] == 2  # the second answer came from the cache


def test_repository_without_commits(tmp_path: Path) -> None:
    git_at(tmp_path, 1, "init", "-q")
    with Store.discover(tmp_path) as store:
        assert store_history.skill_histories(store, {"a": "a"}) == {"a": EMPTY}


def test_shallow_clone_starts_history_at_its_boundary(skills: Path, tmp_path: Path) -> None:
    edit(skills, "a", "edited")
    commit_all(skills, 2, "Improve a")
    clone = tmp_path / "clone"
    git_at(tmp_path, 3, "clone", "-q", "--depth", "1", f"file://{skills}", str(clone))
    # The clone only knows its one commit: it created both skills as far as it can tell.
    assert histories(clone) == {
        "a": SkillHistory(noon(2), 0, None),
        "b": SkillHistory(noon(2), 0, None),
    }
    git_at(clone, 3, "fetch", "-q", "--unshallow")
    assert histories(clone)["a"] == SkillHistory(noon(1), 1, noon(2))


def test_gitcurator_init_commit_creates_the_skills(repo: Path) -> None:
    found = histories(repo)
    assert set(found) == {"pdf-extract", "docker-build", "helm-deploy"}
    assert all(h.created_at and h.patch_count == 0 for h in found.values())


def test_a_root_commit_s_walk_reads_no_tree_head_entries_read(skills: Path) -> None:
    with Store.discover(skills) as store:
        entries = store.head_entries()
        reads = [0]
        get_raw = store.repo.object_store.get_raw

        def counted(name: Any) -> Any:
            reads[0] += 1
            return get_raw(name)

        store.repo.object_store.get_raw = counted  # type: ignore[method-assign]
        found = store_history.skill_histories(store, {"a": "a", "cat/b": "b"})
    assert found == {"a": SkillHistory(noon(1), 0, None), "b": SkillHistory(noon(1), 0, None)}
    assert len(entries) == 2  # two skills, each its SKILL.md
    assert reads[0] <= 2  # the commit itself (and its tree's id), not its folders again

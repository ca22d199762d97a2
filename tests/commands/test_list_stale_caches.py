"""No cache can change what `list --json` says: after plain git moved the repository behind
gitcurator's back (commit, checkout, reset --hard, notes edited by git, a submodule link
staged), and with every cache file garbage, truncated, a link to another library's cache, a
folder, or in a state folder that cannot be written, a warm run equals a cold one (caches
deleted), in real processes."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from support.repos import git, note_key, run_process, write_skill

from gitcurator import statefiles

# State that is not a cache (kept when a cold run is made).
_KEPT = {"host", "journal.jsonl", "segments", "schedule.json", "report.html"}


def _state(repo: Path) -> Path:
    return repo / ".git" / statefiles.STATE_DIR


def _caches(repo: Path) -> list[Path]:
    state = _state(repo)
    return sorted(
        p for p in state.iterdir() if p.name not in _KEPT and not p.name.endswith(".lock")
    )


Listing = tuple[object, str]  # list --json's document and its warnings


def _list(repo: Path) -> Listing:
    done = run_process("list", "--json", "-C", str(repo))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def _drop(repo: Path) -> None:
    for path in _caches(repo):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def _cold(repo: Path) -> Listing:
    _drop(repo)
    return _list(repo)


@pytest.fixture
def used(repo: Path) -> Path:
    """The `repo` fixture with recorded, flushed uses and every cache `list` keeps written."""
    for name in ("pdf-extract", "pdf-extract"):
        assert run_process("record", "use", name, "-C", str(repo)).returncode == 0
    assert run_process("flush", "-C", str(repo)).returncode == 0
    _list(repo)
    assert len(_caches(repo)) >= 3  # records, history, tree (and the index's links)
    return repo


def _commit(repo: Path) -> None:
    write_skill(repo, "coding/new-skill")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "a skill added by plain git", cwd=repo)


def _archive_by_git(repo: Path) -> None:
    folder = next(p for p in repo.glob("*/*/SKILL.md")).parent
    (repo / ".archive").mkdir(exist_ok=True)
    target = repo / ".archive" / folder.relative_to(repo)
    target.parent.mkdir(parents=True, exist_ok=True)
    git("mv", str(folder), str(target), cwd=repo)
    git("commit", "-qm", "archived by plain git", cwd=repo)


def _checkout(repo: Path) -> Listing:
    git("checkout", "-qb", "other", cwd=repo)
    _commit(repo)
    git("checkout", "-q", "-", cwd=repo)
    cached = _list(repo)  # the caches describe this branch; then over to the other one
    git("checkout", "-q", "other", cwd=repo)
    return cached


def _reset(repo: Path) -> Listing:
    _commit(repo)
    cached = _list(repo)  # the caches now describe the new commit
    git("reset", "-q", "--hard", "HEAD~1", cwd=repo)
    return cached


def _packed_refs(repo: Path) -> Listing:
    # The branch moved back by plain git, then every ref packed: HEAD's commit and the notes
    # commit are read from packed-refs alone (no loose file left).
    _commit(repo)
    cached = _list(repo)
    branch = git("symbolic-ref", "--short", "HEAD", cwd=repo).stdout.strip()
    git("checkout", "-q", "--detach", cwd=repo)
    git("branch", "-f", branch, "HEAD~1", cwd=repo)
    git("checkout", "-q", branch, cwd=repo)
    git("pack-refs", "--all", cwd=repo)
    assert not (repo / ".git" / "refs" / "heads" / branch).exists()
    return cached


def _detached(repo: Path) -> Listing:
    _commit(repo)
    cached = _list(repo)
    git("checkout", "-q", "--detach", "HEAD~1", cwd=repo)
    return cached


def _notes_packed_then_by_git(repo: Path) -> None:
    git("pack-refs", "--all", cwd=repo)
    _list(repo)  # kept for the notes commit read from packed-refs
    _notes_by_git(repo)


def _notes_by_git(repo: Path) -> None:
    record = {
        "version": 1,
        "skill": "pdf-extract",
        "hosts": {"elsewhere": {"use_count": 41, "view_count": 2, "last_used_at": None}},
    }
    git("notes", "--ref=gitcurator", "add", "-f", "-m", json.dumps(record),
        note_key(repo, "pdf-extract"), cwd=repo)  # fmt: skip


def _submodule_staged(repo: Path) -> None:
    head = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    git("update-index", "--add", "--cacheinfo", f"160000,{head},vendored", cwd=repo)


def _recorded(repo: Path) -> None:
    # A use only in the journal: no notes commit moves, only the journal's bytes.
    assert run_process("record", "use", "pdf-extract", "-C", str(repo)).returncode == 0


def _config_edited(repo: Path) -> None:
    # Never committed: the config is read from the work tree, and protect changes rows.
    (repo / ".gitcurator.yaml").write_text("curator:\n  protect: [pdf-extract]\n")


# A change returns the listing the caches were left describing, when it is not the one
# before the change.
CHANGES: dict[str, Callable[[Path], Listing | None]] = {
    "commit": _commit,
    "archive by git mv": _archive_by_git,
    "checkout": _checkout,
    "reset --hard": _reset,
    "notes by git": _notes_by_git,
    "submodule staged": _submodule_staged,
    "record into the journal": _recorded,
    "config edited in the work tree": _config_edited,
    "packed refs after a reset": _packed_refs,
    "detached HEAD": _detached,
    "notes by git after pack-refs": _notes_packed_then_by_git,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_made_by_plain_git_is_seen_as_a_cold_run_sees_it(used: Path, change: str) -> None:
    before = _list(used)
    cached = CHANGES[change](used) or before
    warm = _list(used)
    assert warm != cached  # the change is one list shows, so a stale cache would show
    assert warm == _cold(used)


def test_a_linked_worktree_lists_its_own_head_warm_as_cold(used: Path, tmp_path: Path) -> None:
    _commit(used)
    main = _list(used)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", "--detach", str(linked), "HEAD~1", cwd=used)
    warm = _list(linked)  # the state folder (and its kept text) is the main clone's
    assert warm != main
    assert _list(linked) == warm  # from what that run kept
    assert _list(used) == main
    _drop(used)  # the caches, in the common dir's state folder
    assert _list(linked) == warm


def _garbage(path: Path, _other: Path) -> None:
    path.write_bytes(b"\x00garbage{[")


def _truncated(path: Path, _other: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _foreign(path: Path, other: Path) -> None:
    # Another library's cache, a valid document keyed by that library's objects.
    path.unlink()
    path.symlink_to(other / path.name)


def _folder(path: Path, _other: Path) -> None:
    # Nothing can be written there either, even by root (a rename onto a folder fails).
    path.unlink()
    path.mkdir()


DAMAGES: dict[str, Callable[[Path, Path], None]] = {
    "garbage": _garbage,
    "truncated": _truncated,
    "a link to another library's cache": _foreign,
    "a folder": _folder,
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_cache_is_rebuilt_never_trusted(used: Path, tmp_path: Path, damage: str) -> None:
    other = tmp_path / "other"
    write_skill(other, "coding/only-there")
    assert run_process("init", str(other), "--quiet").returncode == 0
    assert run_process("record", "use", "only-there", "-C", str(other)).returncode == 0
    assert run_process("flush", "-C", str(other)).returncode == 0
    _list(other)
    expected = _list(used)
    for path in _caches(used):
        if path.is_file() and (_state(other) / path.name).is_file():
            DAMAGES[damage](path, _state(other))
    assert _list(used) == expected
    assert _list(used) == expected  # and what the first run rewrote reads back the same
    assert _cold(used) == expected


def test_a_state_folder_that_cannot_be_written_still_lists(used: Path) -> None:
    expected = _cold(used)
    _cold(used)
    for path in _caches(used):
        path.unlink()
    state = _state(used)
    for name in (statefiles.RECORDS_CACHE, statefiles.HISTORY_CACHE, statefiles.TREE_CACHE):
        (state / name).mkdir()  # no cache can be written (root ignores the mode below)
    state.chmod(0o500)
    try:
        assert _list(used) == expected
        assert _list(used) == expected
    finally:
        state.chmod(0o755)
    assert os.access(state, os.W_OK)


def _list_at(repo: Path, now: str) -> Listing:
    done = run_process("list", "--json", "--now", now, "-C", str(repo))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def _states(listing: Listing) -> dict[str, str]:
    rows = listing[0]
    assert isinstance(rows, list)
    return {r["name"]: r["state"] for r in rows}


def test_a_later_now_judges_the_kept_rows_again(used: Path) -> None:
    assert run_process("track", "pdf-extract", "--origin", "agent", "-C", str(used)).returncode == 0
    soon, later = "2026-01-01T00:00:00Z", "2030-01-01T00:00:00Z"
    warm_soon = _list_at(used, soon)
    assert (used / ".git" / "gitcurator" / statefiles.ROWS_CACHE).is_file()
    warm_later = _list_at(used, later)  # the rows kept at `soon`, judged at `later`
    assert _states(warm_soon)["pdf-extract"] == "active"
    assert _states(warm_later)["pdf-extract"] == "stale"
    _drop(used)
    assert warm_later == _list_at(used, later)
    _drop(used)
    assert warm_soon == _list_at(used, soon)

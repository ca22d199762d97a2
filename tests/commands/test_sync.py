"""`gitcurator sync` end to end over a bare repository (path and file://) and real git clones."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from support.remotes import NOTES, T1, T2, T3, clone, make_remote, record, refs, sync, usage
from support.repos import corrupt_note, git, run_cli, write_skill

from gitcurator.library import open_repo
from gitcurator.store.notes import key_id
from gitcurator.telemetry import ledger

# -- helpers (test_sync_transports.py uses them too) -------------------------------------------


def sync_json(repo: Path, *args: str) -> dict[str, object]:
    done = sync(repo, *args, "--json")
    assert done.code == 0, done
    doc: dict[str, object] = json.loads(done.out)
    return doc


def git_note(repo: Path, name: str) -> dict[str, object]:
    doc: dict[str, object] = json.loads(
        git("notes", "--ref=gitcurator", "show", key_id(name), cwd=repo).stdout
    )
    return doc


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    return make_remote(tmp_path)


@pytest.fixture
def two(remote: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Clones A and B of `remote`."""
    return clone(remote, tmp_path / "a"), clone(remote, tmp_path / "b")


# -- the scenario ----------------------------------------------------------------------


def test_sync_a_b_a_gives_both_every_event_and_a_fourth_sync_changes_no_ref(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    record(a, "x", 37, T1)
    record(a, "y", 5, T2)
    record(b, "x", 11, T3)

    first, second, third = sync_json(a), sync_json(b), sync_json(a)
    assert first["events_flushed"] == 42 and first["records_sent"] == 2
    assert second["records_updated"] == 2 and second["records_sent"] == 1
    assert third["records_updated"] == 1 and third["notes"]["pushed"] is False  # type: ignore[index]
    for repo in (a, b):
        assert usage(repo) == {"x": (48, T3), "y": (5, T2)}
    # Real git reads the merged notes of the other clone, and finds nothing wrong anywhere.
    doc = git_note(b, "x")
    assert sum(h["use_count"] for h in doc["hosts"].values()) == 48  # type: ignore[attr-defined]
    for repo in (a, b, remote):
        git("fsck", "--strict", "--no-dangling", cwd=repo)

    before = {p: refs(p) for p in (a, b, remote)}
    fourth = [sync_json(a), sync_json(b)]
    assert {p: refs(p) for p in (a, b, remote)} == before
    for doc in fourth:
        assert doc["notes"] == {  # type: ignore[comparison-overlap]
            **doc["notes"],  # type: ignore[dict-item]
            "fetched": False,
            "pushed": False,
            "merge_commit": None,
        }


def test_diverged_histories_are_joined_by_one_merge_commit_with_the_local_tip_first(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    record(a, "x", 1, T1)
    assert sync(a).code == 0
    record(b, "y", 1, T2)
    telemetry_tip = _flush(b)
    done = sync_json(b)
    parents = git("log", "-1", "--format=%P", NOTES, cwd=b).stdout.split()
    assert parents == [telemetry_tip, git("rev-parse", NOTES, cwd=a).stdout.strip()]
    assert done["notes"]["merge_commit"] == git("rev-parse", NOTES, cwd=remote).stdout.strip()  # type: ignore[index]
    # A's next sync is a fast-forward: no commit of its own.
    assert sync_json(a)["notes"]["merge_commit"] is None  # type: ignore[index]
    assert git("rev-parse", NOTES, cwd=a).stdout == git("rev-parse", NOTES, cwd=remote).stdout


def _flush(repo: Path) -> str:
    with open_repo(repo) as r:
        commit = ledger.flush(r.store).commit
    assert commit
    return commit


def test_a_plain_clone_then_sync_brings_all_telemetry_and_pushes_nothing(
    two: tuple[Path, Path], remote: Path, tmp_path: Path
) -> None:
    a, b = two
    record(a, "x", 3, T1)
    record(b, "z", 2, T2)
    assert sync(a).code == 0 and sync(b).code == 0
    fresh = clone(remote, tmp_path / "new-machine")
    assert usage(fresh) == {}  # a clone does not fetch refs/notes by itself
    before = refs(remote)
    done = sync(fresh)
    assert done.code == 0, done
    assert usage(fresh) == {"x": (3, T1), "z": (2, T2)}
    assert refs(remote) == before
    assert "notes: 2 skill records updated from the remote, 0 skill records sent" in done.out
    show = run_cli("show", "x", "-C", str(fresh), "--json")
    assert json.loads(show.out)["use_count"] == 3


def test_the_remote_notes_are_fetched_beside_the_local_ones(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    record(a, "x", 1, T1)
    assert sync(a).code == 0
    record(b, "y", 1, T1)
    _flush(b)
    local = git("rev-parse", NOTES, cwd=b).stdout.strip()
    remote_tip = git("rev-parse", NOTES, cwd=remote).stdout.strip()
    assert sync(b).code == 0
    side = refs(b)
    # After the push the side ref mirrors the remote; both old tips are in the history.
    assert side["refs/notes/gitcurator-remotes/origin"] == refs(remote)[NOTES]
    assert side[NOTES] == refs(remote)[NOTES]
    history = git("rev-list", NOTES, cwd=b).stdout.split()
    assert local in history and remote_tip in history


def test_a_url_or_a_path_works_as_remote(remote: Path, tmp_path: Path) -> None:
    a = clone(remote, tmp_path / "a")
    record(a, "x", 2, T1)
    assert sync(a, f"file://{remote}").code == 0
    b = clone(remote, tmp_path / "b")
    git("remote", "remove", "origin", cwd=b)  # a path no remote names (else it is origin)
    done = sync(b, str(remote))
    assert done.code == 0, done
    assert usage(b) == {"x": (2, T1)}
    assert f"synced with {remote}" in done.out
    assert any(r.startswith("refs/notes/gitcurator-remotes/url-") for r in refs(b))


def test_pins_and_origins_travel_with_the_counts(two: tuple[Path, Path]) -> None:
    a, b = two
    assert run_cli("pin", "x", "-C", str(a)).code == 0
    assert run_cli("track", "y", "--origin", "agent", "-C", str(b)).code == 0
    assert sync(a).code == 0 and sync(b).code == 0 and sync(a).code == 0
    for repo in (a, b):
        listed = {s["name"]: s for s in json.loads(run_cli("list", "--json", "-C", str(repo)).out)}
        assert listed["x"]["pinned"] is True
        assert listed["y"]["origin"] == "agent"


# -- curator branches --------------------------------------------------------------------------


def test_curator_branches_are_pushed_and_fetched_and_a_differing_one_is_reported(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    git("branch", "curator/20260101-000000", cwd=a)
    done = sync_json(a)
    assert done["branches_pushed"] == ["curator/20260101-000000"]
    assert "refs/heads/curator/20260101-000000" in refs(remote)
    got = sync_json(b)
    assert got["branches_fetched"] == ["curator/20260101-000000"]
    assert refs(b)["refs/heads/curator/20260101-000000"] == refs(a)["refs/heads/main"]

    # B's own pass of the same name, but another commit: neither side is overwritten.
    write_skill(b, "w")
    git("add", "-A", cwd=b)
    git("commit", "-q", "-m", "w", cwd=b)
    git("branch", "-f", "curator/20260101-000000", "HEAD", cwd=b)
    before = (refs(b), refs(remote))
    done = sync(b)
    assert done.code == 0, done
    assert "curator/20260101-000000 differs here and on remote origin" in done.err
    assert (refs(b), refs(remote)) == before
    assert sync_json(b)["branches_pushed"] == []


def test_a_curator_branch_deleted_on_either_side_is_not_brought_back(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    branch = "curator/20260101-000000"
    git("branch", branch, cwd=a)
    assert sync_json(a)["branches_pushed"] == [branch]
    assert sync_json(b)["branches_fetched"] == [branch]
    # A drops the pass (`git branch -D`, as merge and rollback suggest): no sync restores it.
    git("branch", "-D", branch, cwd=a)
    assert sync_json(a)["branches_fetched"] == []
    assert f"refs/heads/{branch}" not in refs(a)
    # The remote deletes it (merged there as a pull request): B does not push it back.
    git("push", "-q", str(remote), "--delete", branch, cwd=b)
    assert sync_json(b)["branches_pushed"] == []
    assert f"refs/heads/{branch}" not in refs(remote)
    # A pass made after that is still pushed.
    git("branch", "curator/20260102-000000", cwd=b)
    assert sync_json(b)["branches_pushed"] == ["curator/20260102-000000"]


# -- bad input ----------------------------------------------------------------------------------


def test_an_unknown_remote_name_exits_1_listing_the_configured_ones(two: tuple[Path, Path]) -> None:
    a, _ = two
    done = sync(a, "upstream")
    assert done.code == 1
    assert "no remote named 'upstream' (remotes: origin)" in done.err


def test_an_unreachable_remote_exits_1_naming_it_and_changes_nothing(
    two: tuple[Path, Path],
) -> None:
    a, _ = two
    url = f"git://127.0.0.1:{closed_port()}/remote.git"
    git("remote", "add", "down", url, cwd=a)
    record(a, "x", 2, T1)
    before = refs(a)
    journal = (a / ".git" / "gitcurator" / "journal.jsonl").read_bytes()
    done = sync(a, "down")
    assert done.code == 1
    assert f"cannot fetch from remote down ({url})" in done.err
    assert "Traceback" not in done.err
    assert refs(a) == before
    assert (a / ".git" / "gitcurator" / "journal.jsonl").read_bytes() == journal
    assert usage(a) == {"x": (2, T1)}


def test_a_path_that_is_not_a_repository_exits_1(two: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = two
    empty = tmp_path / "empty"
    empty.mkdir()
    done = sync(a, str(empty))
    assert done.code == 1
    assert "it is not a git repository" in done.err and str(empty) in done.err


def test_sync_outside_a_repository_exits_1(tmp_path: Path) -> None:
    done = sync(tmp_path)
    assert done.code == 1 and "not inside a skills repository" in done.err


def test_a_dirty_work_tree_is_no_obstacle_and_is_left_alone(two: tuple[Path, Path]) -> None:
    a, b = two
    skill = a / "x" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nan edit not committed\n")
    (a / "scratch.txt").write_text("untracked\n")
    status = git("status", "--porcelain", cwd=a).stdout
    record(b, "x", 4, T1)
    assert sync(b).code == 0
    assert sync(a).code == 0
    assert usage(a) == {"x": (4, T1)}
    assert git("status", "--porcelain", cwd=a).stdout == status
    assert "an edit not committed" in skill.read_text()


def test_notes_made_with_plain_git_and_pushed_are_reported_skipped_and_kept(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    # B knows nothing of gitcurator's notes: it annotates a commit and pushes with plain git.
    git("notes", "--ref=gitcurator", "add", "-m", "reviewed by bob", "HEAD", cwd=b)
    git("push", "--quiet", "origin", NOTES, cwd=b)
    commit = git("rev-parse", "HEAD", cwd=b).stdout.strip()
    record(a, "x", 3, T1)
    done = sync(a)
    assert done.code == 0, done
    assert f"note on object {commit} is not a gitcurator record" in done.err
    assert usage(a) == {"x": (3, T1)}
    # Nothing stored is lost: the foreign note is still there, here and on the remote.
    for repo in (a, remote):
        shown = git("notes", "--ref=gitcurator", "show", commit, cwd=repo).stdout
        assert shown == "reviewed by bob\n"
    assert sync(a).err == ""  # reported once, when it arrived
    # A new clone fast-forwards to the remote's notes and is told of the note as well.
    fresh = clone(remote, a.parent / "c")
    done = sync(fresh)
    assert done.code == 0 and f"note on object {commit} is not a gitcurator record" in done.err
    assert usage(fresh) == {"x": (3, T1)}


def test_a_corrupt_record_on_the_remote_is_reported_and_kept_aside(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    record(a, "x", 3, T1)
    assert sync(a).code == 0
    git("fetch", "--quiet", "origin", f"{NOTES}:{NOTES}", cwd=b)
    bad = corrupt_note(b, "x", "this is not json")
    git("push", "--quiet", "origin", NOTES, cwd=b)
    bad_blob = git("notes", "--ref=gitcurator", "list", bad, cwd=b).stdout.strip()
    record(a, "x", 1, T2)
    done = sync(a)
    assert done.code == 0, done
    assert "record of x is invalid" in done.err
    assert usage(a) == {"x": (4, T2)}
    kept = git("ls-tree", "-r", NOTES, "unreadable/", cwd=remote).stdout
    assert bad_blob in kept and f"unreadable/x-{bad_blob[:12]}" in kept


def test_two_unreadable_records_kept_at_different_times_both_survive(
    two: tuple[Path, Path],
) -> None:
    # Regression: a second record kept under unreadable/ used to replace the first one there.
    a, _ = two
    record(a, "x", 1, T1)
    record(a, "y", 1, T1)
    _flush(a)
    blobs = []
    for name in ("x", "y"):
        corrupt_note(a, name, f"broken {name}")
        blobs.append(git("notes", "--ref=gitcurator", "list", key_id(name), cwd=a).stdout.strip())
        record(a, name, 1, T2)
        _flush(a)
    kept = git("ls-tree", "-r", NOTES, "unreadable/", cwd=a).stdout
    assert all(blob in kept for blob in blobs), kept


def test_the_human_summary_says_what_moved(two: tuple[Path, Path]) -> None:
    a, b = two
    record(a, "x", 2, T1)
    done = sync(a)
    assert done.out.splitlines() == [
        f"synced with origin ({a.parent / 'remote.git'})",
        "notes: 0 skill records updated from the remote, 1 skill record sent to it",
        "folded 2 buffered events first",
    ]
    assert sync(a).out.splitlines()[1] == "notes: already in sync, nothing changed"
    assert sync(b).code == 0


def test_the_help_describes_remote(tmp_path: Path) -> None:
    done = run_cli("sync", "--help")
    assert done.code == 0 and "REMOTE is a configured remote's name" in done.out


def test_sync_in_a_clone_without_remotes_says_how_to_add_one(tmp_path: Path) -> None:
    library = tmp_path / "solo"
    write_skill(library, "x")
    assert run_cli("init", str(library), "--quiet").code == 0
    done = sync(library)
    assert done.code == 1
    assert "(remotes: none is configured)" in done.err and "git remote add" in done.err


def test_sync_refuses_nothing_when_the_remote_has_no_notes_yet(two: tuple[Path, Path]) -> None:
    a, _ = two
    done = sync_json(a)
    assert done["notes"]["remote_after"] is None and done["tries"] == 1  # type: ignore[index]


def test_a_locked_ref_on_a_local_remote_is_a_refused_push_not_a_crash(
    two: tuple[Path, Path], remote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitcurator.sync import session as sync_module

    monkeypatch.setattr(sync_module.random, "uniform", lambda lo, hi: 0.0)
    a, b = two
    record(b, "y", 1, T1)
    assert sync(b).code == 0
    record(a, "x", 2, T2)
    lock = remote / "refs" / "notes" / "gitcurator.lock"  # another writer, mid-update
    lock.write_text("")
    done = sync(a)
    assert done.code == 1 and "kept moving" in done.err, done
    assert "Traceback" not in done.err
    assert usage(a) == {"x": (2, T2), "y": (1, T1)}
    lock.unlink()
    assert sync(a).code == 0 and sync(b).code == 0
    assert usage(b) == {"x": (2, T2), "y": (1, T1)}


# -- a remote that holds bad data ----------------------------------------------------------------


def test_a_remote_notes_ref_that_is_no_commit_is_refused_and_nothing_here_moves(
    two: tuple[Path, Path], remote: Path, tmp_path: Path
) -> None:
    a, _ = two
    record(a, "x", 3, T1)
    assert sync(a).code == 0
    blob = git("hash-object", "-w", "--stdin", cwd=remote).stdout.strip()
    git("update-ref", NOTES, blob, cwd=remote)
    for repo in (a, clone(remote, tmp_path / "fresh")):
        before = refs(repo)
        done = sync(repo)
        assert done.code == 1, done
        assert f"{NOTES} points at a blob" in done.err and "nothing was changed" in done.err
        assert refs(repo) == before
    assert usage(a) == {"x": (3, T1)}


def test_a_note_overwritten_with_plain_git_does_not_replace_a_readable_record(
    two: tuple[Path, Path],
) -> None:
    a, b = two
    record(a, "x", 5, T1)
    assert sync(a).code == 0
    assert sync(b).code == 0
    git("fetch", "-q", "origin", f"{NOTES}:{NOTES}", cwd=b)
    git("notes", "--ref=gitcurator", "add", "-f", "-m", "oops", key_id("x"), cwd=b)
    git("push", "-q", "origin", NOTES, cwd=b)
    done = sync(a)
    assert done.code == 0, done
    assert usage(a)["x"] == (5, T1)  # the readable record stays the note


def test_a_relative_remote_path_is_relative_to_the_work_tree(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, _ = two
    git("remote", "add", "rel", str(Path("..") / remote.name), cwd=a)
    (a / "sub").mkdir()
    record(a, "x", 2, T1)
    done = run_cli("sync", "rel", cwd=a / "sub")
    assert done.code == 0, done
    assert git("notes", "--ref=gitcurator", "list", cwd=remote).stdout.strip()


def test_a_remote_branch_that_could_not_be_created_is_fetched_by_the_next_sync(
    two: tuple[Path, Path],
) -> None:
    a, b = two
    branch = "curator/20260101-000000"
    git("branch", branch, cwd=a)
    assert sync(a).code == 0
    lock = b / ".git" / "refs" / "heads" / "curator" / "20260101-000000.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")
    done = sync(b)
    assert done.code == 0 and "could not be created here" in done.err
    lock.unlink()
    assert sync_json(b)["branches_fetched"] == [branch]


def test_the_same_remote_by_path_or_by_name_shares_one_memory_of_branches(
    two: tuple[Path, Path], remote: Path
) -> None:
    a, b = two
    branch = "curator/20260101-000000"
    git("branch", branch, cwd=a)
    assert sync(a).code == 0
    assert sync_json(b)["branches_fetched"] == [branch]
    git("branch", "-D", branch, cwd=b)
    assert sync_json(b, str(remote))["branches_fetched"] == []
    assert sync_json(b, f"file://{remote}")["branches_fetched"] == []

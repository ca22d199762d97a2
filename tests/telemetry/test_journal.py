"""journal.py: finding .git, reading HEAD without dulwich, the host id, the journal itself."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.repos import git

from gitcurator.telemetry import journal

# -- finding the git dir and HEAD ----------------------------------------------------------


def _git_repo(path: Path, commits: int = 1) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git("init", "-q", cwd=path)
    for i in range(commits):
        (path / "f.txt").write_text(f"{i}\n")
        git("add", "f.txt", cwd=path)
        git("commit", "-qm", f"c{i}", cwd=path)
    return path


def _rev(path: Path, rev: str = "HEAD") -> str:
    return git("rev-parse", rev, cwd=path).stdout.strip()


def test_find_gitdir_from_the_root_and_from_a_subfolder(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r")
    (root / "a" / "b").mkdir(parents=True)
    assert journal.find_gitdir(root) == (root, root / ".git")
    assert journal.find_gitdir(root / "a" / "b") == (root, root / ".git")


@pytest.mark.parametrize("absolute", [True, False])
def test_find_gitdir_follows_a_dotgit_file(tmp_path: Path, absolute: bool) -> None:
    real = _git_repo(tmp_path / "r")
    moved = tmp_path / "elsewhere.git"
    (real / ".git").rename(moved)
    target = str(moved) if absolute else "../elsewhere.git"
    (real / ".git").write_text(f"gitdir: {target}\n")
    root, gitdir = journal.find_gitdir(real)
    assert (root, gitdir.resolve()) == (real, moved.resolve())
    assert journal.read_head(gitdir) == _rev(real)


def test_linked_worktree_reads_its_own_head_and_shares_state_with_the_main_clone(
    tmp_path: Path,
) -> None:
    main = _git_repo(tmp_path / "main", commits=2)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", "-b", "side", str(linked), "HEAD~1", cwd=main)
    root, gitdir = journal.find_gitdir(linked)
    assert root == linked
    assert gitdir.resolve() == (main / ".git" / "worktrees" / "linked").resolve()
    assert journal.read_head(gitdir) == _rev(main, "HEAD~1") != _rev(main)
    # one journal per clone: the worktree's events land where the main checkout's do
    assert journal.state_dir(gitdir).resolve() == (main / ".git" / journal.STATE_DIR).resolve()


def test_find_gitdir_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        journal.find_gitdir(tmp_path)


def test_read_head_loose_ref(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r")
    assert (root / ".git" / "refs" / "heads" / "main").is_file()
    assert journal.read_head(root / ".git") == _rev(root)


def test_read_head_packed_refs(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r", commits=2)
    git("tag", "-a", "-m", "t", "v1", "HEAD~1", cwd=root)  # a peeled `^` line in packed-refs
    git("branch", "other", "HEAD~1", cwd=root)
    git("pack-refs", "--all", cwd=root)
    assert not (root / ".git" / "refs" / "heads" / "main").exists()
    assert journal.read_head(root / ".git") == _rev(root)
    assert journal.read_ref(root / ".git", "refs/heads/other") == _rev(root, "HEAD~1")
    assert journal.read_ref(root / ".git", "refs/heads/missing") is None


def test_read_head_detached(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r", commits=2)
    parent = _rev(root, "HEAD~1")
    git("checkout", "-q", "--detach", parent, cwd=root)
    assert journal.read_head(root / ".git") == parent


def test_read_head_unborn_branch(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r", commits=0)
    assert journal.read_head(root / ".git") is None


# -- the host id ---------------------------------------------------------------------------


def test_host_id_is_chosen_once_and_kept(tmp_path: Path) -> None:
    first = journal.host_id(tmp_path / "state")
    assert journal.host_id(tmp_path / "state") == first
    assert (tmp_path / "state" / journal.HOST_FILE).read_text().strip() == first
    assert journal.host_id(tmp_path / "other") != first, "each clone has its own id"
    import re

    assert re.fullmatch(r"[A-Za-z0-9._-]{1,64}", first)
    assert list((tmp_path / "state").iterdir()) == [tmp_path / "state" / journal.HOST_FILE]


@pytest.mark.parametrize("damaged", [b"\xae\x81\xff\n", b"", b"not a host id!\n", b"x" * 65])
def test_a_damaged_host_file_is_replaced_not_a_crash(tmp_path: Path, damaged: bytes) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / journal.HOST_FILE).write_bytes(damaged)
    first = journal.host_id(state)
    assert journal.host_id(state) == first, "the replacement is kept"
    assert (state / journal.HOST_FILE).read_text().strip() == first


def _host_id_in_process(state: str) -> str:
    return journal.host_id(Path(state))


def test_host_id_processes_racing_for_the_first_id_all_agree(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        ids = pool.map(_host_id_in_process, [str(state)] * 16)
    assert set(ids) == {(state / journal.HOST_FILE).read_text().strip()}


def test_host_id_threads_racing_for_the_first_id_all_agree(tmp_path: Path) -> None:
    for trial in range(20):
        state = tmp_path / f"state{trial}"
        ids: list[str] = []
        errors: list[BaseException] = []

        def choose(
            state: Path = state, ids: list[str] = ids, errors: list[BaseException] = errors
        ) -> None:
            try:
                ids.append(journal.host_id(state))
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=choose) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert set(ids) == {(state / journal.HOST_FILE).read_text().strip()}


# -- appending, rotating, reading ----------------------------------------------------------


def _append(state: Path, kind: str, *names: str, at: str = "2026-01-01T00:00:00Z") -> None:
    journal.append(state, journal.event_line(kind, list(names), at, "host-1"))


def test_event_line_is_one_json_line_holding_every_name_of_the_call() -> None:
    line = journal.event_line("use", ["pdf-extract", "café"], "2026-01-01T00:00:00Z", "h")
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {
        "v": 1,
        "k": "use",
        "t": "2026-01-01T00:00:00Z",
        "h": "h",
        "n": ["pdf-extract", "café"],
    }


def test_append_then_read_events(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _append(state, "use", "a")
    _append(state, "view", "b", "c", at="2026-02-01T00:00:00Z")
    events, problems = journal.read_events(state / journal.JOURNAL)
    assert events == [
        journal.Event("use", ("a",), "2026-01-01T00:00:00Z", "host-1"),
        journal.Event("view", ("b", "c"), "2026-02-01T00:00:00Z", "host-1"),
    ]
    assert problems == []


def test_read_events_of_a_missing_file_is_empty(tmp_path: Path) -> None:
    assert journal.read_events(tmp_path / "nothing.jsonl") == ([], [])


def test_a_partial_last_line_is_left_for_the_next_read(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _append(state, "use", "a")
    line = journal.event_line("use", ["b"], "2026-01-01T00:00:00Z", "host-1")
    with (state / journal.JOURNAL).open("ab") as f:
        f.write(line[:10])  # a writer caught halfway
    events, problems = journal.read_events(state / journal.JOURNAL)
    assert [e.names for e in events] == [("a",)]
    assert problems == [], "a line still being written is not a problem"
    with (state / journal.JOURNAL).open("ab") as f:
        f.write(line[10:])
    events, problems = journal.read_events(state / journal.JOURNAL)
    assert [e.names for e in events] == [("a",), ("b",)]


@pytest.mark.parametrize(
    "bad",
    [
        b"{not json",
        b'{"v":1,"k":"use"}',  # fields missing
        b'"just a string"',
        b"\xff\xfe",
        # well-formed JSON that could never become a valid record
        b'{"v":1,"k":"patch","t":"2026-01-01T00:00:00Z","h":"h","n":["a"]}',
        b'{"v":1,"k":"use","t":"yesterday","h":"h","n":["a"]}',
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"bad host!","n":["a"]}',
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":["My_Skill"]}',
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":"abc"}',
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":[7]}',
    ],
)
def test_a_corrupt_line_is_reported_with_its_place_and_the_rest_still_read(
    tmp_path: Path, bad: bytes
) -> None:
    state = tmp_path / "state"
    _append(state, "use", "a")
    with (state / journal.JOURNAL).open("ab") as f:
        f.write(bad + b"\n")
    _append(state, "use", "b")
    events, problems = journal.read_events(state / journal.JOURNAL)
    assert [e.names for e in events] == [("a",), ("b",)]
    assert problems == [f"{journal.JOURNAL}:2: unreadable journal line skipped"]


@pytest.mark.parametrize(
    "torn", [b'{"v":1,"k":"use"', b"\x00\x00\x00", b'{"v":1,"k":"use","t":"2026-0']
)
def test_an_event_appended_after_a_torn_line_is_not_lost(tmp_path: Path, torn: bytes) -> None:
    # A writer killed mid-write (or a journal cut short) leaves no newline; the next call's
    # whole line lands on the same line and must still count.
    state = tmp_path / "state"
    _append(state, "use", "a")
    with (state / journal.JOURNAL).open("ab") as f:
        f.write(torn)
    _append(state, "use", "b")
    _append(state, "view", "c")
    events, problems = journal.read_events(state / journal.JOURNAL)
    assert [e.names for e in events] == [("a",), ("b",), ("c",)]
    assert problems == [f"{journal.JOURNAL}:2: unreadable journal line skipped"]


def test_rotate_moves_the_journal_to_a_segment_and_writers_start_a_new_one(tmp_path: Path) -> None:
    state = tmp_path / "state"
    assert journal.rotate(state) is None, "nothing to rotate"
    _append(state, "use", "a")
    first = journal.rotate(state)
    assert first is not None and not (state / journal.JOURNAL).exists()
    _append(state, "use", "b")
    second = journal.rotate(state)
    assert second is not None
    # (two rotations in one second may list in either order: folding does not depend on it)
    assert sorted(journal.segment_files(state)) == sorted([first, second])
    assert [journal.read_events(s)[0][0].names for s in (first, second)] == [("a",), ("b",)]


def test_segment_files_are_oldest_first(tmp_path: Path) -> None:
    folder = tmp_path / "state" / journal.SEGMENTS
    folder.mkdir(parents=True)
    for name in ["20260102000000-b.jsonl", "20260101000000-z.jsonl", "20260103000000-a.jsonl"]:
        (folder / name).write_text("")
    (folder / "notes.txt").write_text("")  # not a segment
    assert [p.name for p in journal.segment_files(tmp_path / "state")] == [
        "20260101000000-z.jsonl",
        "20260102000000-b.jsonl",
        "20260103000000-a.jsonl",
    ]


def test_no_line_is_lost_or_torn_when_writers_race_a_rotating_flush(tmp_path: Path) -> None:
    state = tmp_path / "state"
    writers, per_writer = 6, 300
    done = threading.Event()

    def write(who: int) -> None:
        for i in range(per_writer):
            _append(state, "use", f"w{who}-{i}")

    def rotate_until_done() -> None:
        while not done.is_set():
            journal.rotate(state)

    rotator = threading.Thread(target=rotate_until_done)
    rotator.start()
    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    rotator.join()
    seen: list[str] = []
    for path in [*journal.segment_files(state), state / journal.JOURNAL]:
        events, problems = journal.read_events(path)
        assert problems == []
        if path.exists():
            assert path.read_bytes().endswith(b"\n") or path.stat().st_size == 0
        seen += [n for e in events for n in e.names]
    assert len(journal.segment_files(state)) > 1, "the flush never rotated mid-run"
    assert sorted(seen) == sorted(f"w{w}-{i}" for w in range(writers) for i in range(per_writer))


def test_exclusive_lock_keeps_out_a_second_holder(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with journal.exclusive(state):
        script = (
            "import sys; from pathlib import Path; from gitcurator.telemetry import journal\n"
            "try:\n"
            "    with journal.exclusive(Path(sys.argv[1]), timeout=0.2): print('got it')\n"
            "except TimeoutError: print('timed out')\n"
        )
        held = subprocess.run(
            [sys.executable, "-c", script, str(state)], capture_output=True, text=True, check=True
        )
        assert held.stdout.strip() == "timed out"
    with journal.exclusive(state, timeout=0.2):
        pass  # released on exit


# -- the names cache -----------------------------------------------------------------------


def test_names_cache_round_trip_keyed_by_head(tmp_path: Path) -> None:
    state = tmp_path / "state"
    names = {"pdf-extract": "pdf-extract", "pdf-helper": "pdf-tools", "old-pdf": "pdf-extract"}
    head = "a" * 40
    assert journal.lookup_names(state, head, ["x"]) is None, "no cache yet"
    journal.write_names(state, head, names)
    assert journal.lookup_names(state, head, list(names)) == names
    assert journal.lookup_names(state, head, ["pdf", "extract", "pdf-extract"]) == {
        "pdf-extract": "pdf-extract"
    }, "a prefix or suffix of a name is not that name"
    assert journal.lookup_names(state, "b" * 40, ["x"]) is None, "HEAD moved: the cache is stale"
    assert journal.lookup_names(state, None, ["x"]) is None


@pytest.mark.parametrize(
    ("cache", "asked", "found"),
    [
        # names that are never skill names must not match the cache's line structure
        ("head H\na\nb\n", [""], {}),
        ("head H\na\nb\n", ["a\nb"], {}),
        ("head H\nold\tnew\nnew\n", ["old\tnew"], {}),
        # a cache cut short (no final newline) is read as far as it is whole
        ("head H\na\nb", ["a", "b"], {"a": "a"}),
        ("head H\na\nold\tne", ["a", "old"], {"a": "a"}),
    ],
)
def test_names_cache_lookup_of_odd_names_and_a_cut_short_cache(
    tmp_path: Path, cache: str, asked: list[str], found: dict[str, str]
) -> None:
    (tmp_path / journal.NAMES_CACHE).write_text(cache.replace("H", "a" * 40))
    assert journal.lookup_names(tmp_path, "a" * 40, asked) == found


def test_a_names_cache_that_is_not_utf8_is_no_cache(tmp_path: Path) -> None:
    (tmp_path / journal.NAMES_CACHE).write_bytes(b"head " + b"a" * 40 + b"\n\xae\xff\n")
    assert journal.lookup_names(tmp_path, "a" * 40, ["x"]) is None


def test_names_cache_for_an_unborn_head(tmp_path: Path) -> None:
    journal.write_names(tmp_path, None, {"x": "x"})
    assert journal.lookup_names(tmp_path, None, ["x"]) == {"x": "x"}
    assert journal.lookup_names(tmp_path, "a" * 40, ["x"]) is None


def test_names_cache_written_by_racing_threads_stays_whole(tmp_path: Path) -> None:
    names = {f"skill-{i}": f"skill-{i}" for i in range(3000)}
    errors: list[BaseException] = []

    def write() -> None:
        try:
            journal.write_names(tmp_path, "c" * 40, names)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert journal.lookup_names(tmp_path, "c" * 40, list(names)) == names
    assert [p.name for p in tmp_path.iterdir()] == [journal.NAMES_CACHE]

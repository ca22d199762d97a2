"""Usage telemetry end to end: record, flush, notes real git can read, crashes, concurrency."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support.repos import git, note_key, run_cli, run_process, write_skill

from gitcurator import schemas
from gitcurator.library import open_repo
from gitcurator.statefiles import JOURNAL, SEGMENTS, STATE_DIR
from gitcurator.store.notes import NOTES_REF, key_id
from gitcurator.telemetry import journal, ledger, notes_records, recording
from gitcurator.telemetry.host import host_id
from gitcurator.telemetry.records import UsageRecord

SKILLS = ["docker-build", "helm-deploy", "pdf-extract"]  # the `repo` fixture's skills
REF = "--ref=gitcurator"

# -- helpers -------------------------------------------------------------------------------


def _load(repo: Path) -> notes_records.Loaded:
    with open_repo(repo) as r:
        return ledger.load(r.store)


def _flush(repo: Path) -> ledger.FlushResult:
    with open_repo(repo) as r:
        return ledger.flush(r.store)


def _counts(repo: Path) -> dict[str, tuple[int, int]]:
    """(use_count, view_count) of every skill with a record, notes plus buffered events."""
    return {n: (r.use_count, r.view_count) for n, r in _load(repo).records.items()}


def _notes_commits(repo: Path) -> int:
    done = git("rev-list", "--count", NOTES_REF.decode(), cwd=repo, check=False)
    return int(done.stdout) if done.returncode == 0 else 0


def _git_note(repo: Path, name: str) -> dict[str, Any]:
    """A skill's record read with `git notes show`, checked against the published schema."""
    shown = git("notes", REF, "show", note_key(repo, name), cwd=repo).stdout
    doc: dict[str, Any] = json.loads(shown)
    assert schemas.problems(doc, "usage-record") == []
    assert doc["skill"] == name
    return doc


def _note_total(doc: dict[str, Any], field: str) -> int:
    return sum(h[field] for h in doc["hosts"].values())


def _journal_lines(repo: Path) -> int:
    path = repo / ".git" / STATE_DIR / JOURNAL
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def _set_record(repo: Path, name: str, **fields: Any) -> None:
    def change(records: dict[str, UsageRecord]) -> set[str]:
        records[name] = replace(records.get(name) or UsageRecord(name), **fields)
        return {name}

    with open_repo(repo) as r:
        ledger.update(r.store, change, "test: set fields")


# -- record and flush ----------------------------------------------------------------------


def test_record_then_flush_puts_the_counts_in_the_notes(repo: Path) -> None:
    for args in [
        ("use", "pdf-extract"),
        ("use", "pdf-extract", "helm-deploy"),
        ("view", "docker-build"),
        ("view", "pdf-extract"),
    ]:
        assert run_cli("record", *args, "-C", str(repo)).code == 0
    assert _journal_lines(repo) == 4, "one journal line per call"
    result = run_cli("flush", "-C", str(repo))
    assert result.code == 0, result
    assert "folded 5 events into 3 skill records" in result.out
    assert _journal_lines(repo) == 0
    assert journal.segment_files(repo / ".git" / STATE_DIR) == []
    notes = {name: _git_note(repo, name) for name in SKILLS}
    assert {
        n: (_note_total(d, "use_count"), _note_total(d, "view_count")) for n, d in notes.items()
    } == {
        "pdf-extract": (2, 1),
        "helm-deploy": (1, 0),
        "docker-build": (0, 1),
    }
    assert run_cli("flush", "-C", str(repo)).out.strip() == "nothing to flush"


def test_reading_commands_see_buffered_events_before_and_after_a_flush(repo: Path) -> None:
    recording.record("use", ["pdf-extract", "pdf-extract"], repo=repo)
    recording.record("view", ["docker-build"], repo=repo)
    assert _notes_commits(repo) == 0, "nothing flushed yet"
    assert _counts(repo) == {"pdf-extract": (2, 0), "docker-build": (0, 1)}
    _flush(repo)
    assert _counts(repo) == {"pdf-extract": (2, 0), "docker-build": (0, 1)}, "no double count"
    recording.record("use", ["pdf-extract"], repo=repo)
    assert _counts(repo) == {"pdf-extract": (3, 0), "docker-build": (0, 1)}
    assert _note_total(_git_note(repo, "pdf-extract"), "use_count") == 2, "not flushed yet"


@pytest.mark.parametrize(
    ("at", "stored"),
    [
        ("2020-01-02T03:04:05Z", "2020-01-02T03:04:05Z"),
        ("2020-01-02T05:04:05+02:00", "2020-01-02T03:04:05Z"),
        ("2020-01-02", "2020-01-02T00:00:00Z"),
    ],
)
def test_at_records_a_past_time(repo: Path, at: str, stored: str) -> None:
    assert run_process("record", "use", "pdf-extract", "--at", at, cwd=repo).returncode == 0
    record = _load(repo).records["pdf-extract"]
    assert (record.use_count, record.last_used_at) == (1, stored)
    # a later event moves the time forward; a past one recorded afterwards does not move it back
    assert run_cli("record", "use", "pdf-extract", "-C", str(repo)).code == 0
    now = _load(repo).records["pdf-extract"].last_used_at
    assert now is not None and now > stored
    recording.record("use", ["pdf-extract"], at=at, repo=repo)
    record = _load(repo).records["pdf-extract"]
    assert (record.use_count, record.last_used_at) == (3, now)


def test_a_bad_at_is_a_usage_error_and_records_nothing(repo: Path) -> None:
    done = run_process("record", "use", "pdf-extract", "--at", "yesterday", cwd=repo)
    assert done.returncode == 2
    assert "yesterday" in done.stderr
    assert _counts(repo) == {}


@pytest.mark.parametrize("at", [["--at", ""], ["--at="], ["--at", " "]])
def test_an_empty_at_is_a_usage_error_naming_it(repo: Path, at: list[str]) -> None:
    done = run_process("record", "use", "pdf-extract", *at, cwd=repo)
    assert done.returncode == 2
    assert "--at is empty" in done.stderr
    assert _counts(repo) == {}
    assert run_cli("record", "use", "pdf-extract", *at, "-C", str(repo)).code == 2


@pytest.mark.parametrize("how", ["process (fast path)", "in-process CLI"])
def test_unknown_name_exits_1_naming_it_and_records_nothing_of_that_call(
    repo: Path, how: str
) -> None:
    args = ("record", "use", "pdf-extract", "no-such-skill", "docker-build")
    if how == "in-process CLI":
        result = run_cli(*args, "-C", str(repo))
        code, err = result.code, result.err
    else:
        done = run_process(*args, cwd=repo)
        code, err = done.returncode, done.stderr
    assert code == 1
    assert "no-such-skill" in err and "nothing was recorded" in err
    assert "pdf-extract" not in err.split("no skill named", 1)[1].split(";")[0]
    assert _journal_lines(repo) == 0
    assert _counts(repo) == {}


@pytest.mark.parametrize("odd", ["", "pdf-extract\ndocker-build", "docker-build\thelm-deploy", " "])
def test_a_name_that_can_never_be_a_skill_exits_1_and_records_nothing(repo: Path, odd: str) -> None:
    # Warm the names cache first: the fast path searches it as text, line by line.
    assert run_process("record", "use", "pdf-extract", cwd=repo).returncode == 0
    done = run_process("record", "use", "docker-build", odd, cwd=repo)
    assert done.returncode == 1, done.stderr
    assert "nothing was recorded" in done.stderr and "Traceback" not in done.stderr
    assert _journal_lines(repo) == 1
    assert _flush(repo).warnings == []
    assert _counts(repo) == {"pdf-extract": (1, 0)}


def test_unknown_names_through_the_api(repo: Path) -> None:
    with pytest.raises(recording.UnknownSkill) as caught:
        recording.record("use", ["pdf-extract", "nope", "also-nope"], repo=repo)
    assert caught.value.names == ["nope", "also-nope"]
    assert _counts(repo) == {}
    with pytest.raises(ValueError, match="patch"):
        recording.record("patch", ["pdf-extract"], repo=repo)


def test_record_outside_a_repository_says_so(tmp_path: Path) -> None:
    done = run_process("record", "use", "pdf-extract", cwd=tmp_path)
    assert done.returncode == 1
    assert "not inside a skills repository" in done.stderr


def test_record_from_a_subfolder(repo: Path) -> None:
    assert run_process("record", "view", "helm-deploy", cwd=repo / "devops" / "k8s").returncode == 0
    assert _counts(repo) == {"helm-deploy": (0, 1)}


def test_a_frontmatter_name_other_than_the_folder_counts_for_the_folders_skill(repo: Path) -> None:
    write_skill(repo, "documents/pdf-tools", name="pdf-helper")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "add pdf-tools", cwd=repo)
    assert recording.record("use", ["pdf-helper"], repo=repo) == ["pdf-tools"]
    assert run_process("record", "view", "pdf-helper", cwd=repo).returncode == 0
    assert run_process("record", "use", "pdf-tools", cwd=repo).returncode == 0
    _flush(repo)
    assert _counts(repo) == {"pdf-tools": (2, 1)}
    assert (
        "pdf-helper" not in git("ls-tree", "-r", "--name-only", NOTES_REF.decode(), cwd=repo).stdout
    )


def test_a_skill_written_but_not_yet_committed_can_be_recorded(repo: Path) -> None:
    recording.record("use", ["pdf-extract"], repo=repo)  # the names cache is now warm
    write_skill(repo, "fresh-skill")
    assert recording.record("use", ["fresh-skill"], repo=repo) == ["fresh-skill"]
    assert _counts(repo)["fresh-skill"] == (1, 0)


def test_an_absorbed_name_counts_for_its_umbrella(repo: Path) -> None:
    recording.record("use", ["pdf-extract"], repo=repo)  # warms the names cache
    # As after a merged fold: the skill is archived and its record names its umbrella.
    assert run_cli("archive", "pdf-extract", "-C", str(repo)).code == 0
    _set_record(repo, "pdf-extract", absorbed_into="docker-build")
    assert recording.record("use", ["pdf-extract"], repo=repo) == ["docker-build"]
    assert run_process("record", "view", "pdf-extract", cwd=repo).returncode == 0
    assert _counts(repo) == {"pdf-extract": (1, 0), "docker-build": (1, 1)}
    # Restored (a fold rolled back), the live skill answers for its own name again.
    assert run_cli("restore", "pdf-extract", "-C", str(repo)).code == 0
    assert recording.record("use", ["pdf-extract"], repo=repo) == ["pdf-extract"]


# -- real git reads and keeps the notes ----------------------------------------------------


def _record_all(repo: Path) -> None:
    for i, name in enumerate(SKILLS):
        for _ in range(i + 1):
            recording.record("use", [name], repo=repo)
    _flush(repo)


def test_git_notes_lists_one_note_per_skill_keyed_by_the_name_blob(repo: Path) -> None:
    _record_all(repo)
    listed = git("notes", REF, "list", cwd=repo).stdout.split()
    annotated = set(listed[1::2])
    assert annotated == {note_key(repo, n) for n in SKILLS} == {key_id(n) for n in SKILLS}
    assert {n: _note_total(_git_note(repo, n), "use_count") for n in SKILLS} == {
        "docker-build": 1,
        "helm-deploy": 2,
        "pdf-extract": 3,
    }
    # the annotated key blobs exist and say whose they are
    for name in SKILLS:
        assert git("cat-file", "-p", note_key(repo, name), cwd=repo).stdout == (
            f"gitcurator skill {name}\n"
        )


def test_editing_and_committing_a_skill_keeps_its_record(repo: Path) -> None:
    _record_all(repo)
    skill_md = repo / "pdf-extract" / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nOne more step.\n")
    git("commit", "-qam", "edit pdf-extract", cwd=repo)
    assert _note_total(_git_note(repo, "pdf-extract"), "use_count") == 3
    recording.record("use", ["pdf-extract"], repo=repo)  # HEAD moved: the names cache rebuilds
    _flush(repo)
    assert _counts(repo)["pdf-extract"] == (4, 0)


def test_git_notes_prune_and_gc_keep_every_record_and_fsck_is_clean(repo: Path) -> None:
    _record_all(repo)
    before = git("notes", REF, "list", cwd=repo).stdout
    git("notes", REF, "prune", cwd=repo)
    git("-c", "gc.reflogExpire=now", "gc", "--prune=now", "-q", cwd=repo)
    assert git("notes", REF, "list", cwd=repo).stdout == before
    assert {n: _note_total(_git_note(repo, n), "use_count") for n in SKILLS} == {
        "docker-build": 1,
        "helm-deploy": 2,
        "pdf-extract": 3,
    }
    assert git("fsck", "--strict", "--no-dangling", cwd=repo).stdout == ""
    # after gc the refs are packed: the hot path and the flush still work
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert run_process("record", "use", "pdf-extract", cwd=repo).returncode == 0
    _flush(repo)
    assert _counts(repo)["pdf-extract"] == (4, 0)
    done = git("fsck", "--strict", cwd=repo, check=False)
    assert done.returncode == 0, done.stderr


def test_a_foreign_note_is_reported_and_survives_our_flush(repo: Path) -> None:
    _record_all(repo)
    git("notes", REF, "add", "-m", "hello", "HEAD", cwd=repo)
    head = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    loaded = _load(repo)
    assert [p for p in loaded.problems if head in p], loaded.problems
    assert set(loaded.records) == set(SKILLS), "the records are still read"
    recording.record("use", ["pdf-extract"], repo=repo)
    assert _flush(repo).commit is not None
    assert git("notes", REF, "show", "HEAD", cwd=repo).stdout == "hello\n"
    assert _counts(repo)["pdf-extract"] == (4, 0)


def test_a_corrupt_record_is_reported_and_kept_aside_when_its_skill_is_next_flushed(
    repo: Path,
) -> None:
    _record_all(repo)
    key = note_key(repo, "pdf-extract")
    git("notes", REF, "add", "-f", "-m", "{bad", key, cwd=repo)

    loaded = _load(repo)
    assert any("pdf-extract" in p for p in loaded.problems), loaded.problems
    assert _counts(repo) == {"docker-build": (1, 0), "helm-deploy": (2, 0)}, "others carry on"

    # a flush that does not touch pdf-extract leaves its bad note as it is
    recording.record("use", ["docker-build"], repo=repo)
    assert _flush(repo).warnings == []
    assert git("notes", REF, "show", key, cwd=repo).stdout == "{bad\n"

    # the next events for pdf-extract start a new record; the bad one is kept, and we say so
    recording.record("use", ["pdf-extract"], repo=repo)
    result = run_cli("flush", "-C", str(repo))
    assert result.code == 0, result
    assert "pdf-extract" in result.err and "unreadable/" in result.err
    kept = git("ls-tree", "-r", "--name-only", NOTES_REF.decode(), "unreadable/", cwd=repo)
    (path,) = kept.stdout.split()
    assert path.startswith("unreadable/pdf-extract-")
    assert git("show", f"{NOTES_REF.decode()}:{path}", cwd=repo).stdout == "{bad\n"
    assert _note_total(_git_note(repo, "pdf-extract"), "use_count") == 1
    loaded = _load(repo)
    assert not any("pdf-extract" in p for p in loaded.problems), loaded.problems
    assert _counts(repo) == {"docker-build": (2, 0), "helm-deploy": (2, 0), "pdf-extract": (1, 0)}
    # a later flush keeps the kept copy
    recording.record("use", ["helm-deploy"], repo=repo)
    _flush(repo)
    assert path in git("ls-tree", "-r", "--name-only", NOTES_REF.decode(), cwd=repo).stdout


def test_a_damaged_journal_line_is_reported_and_does_not_block_the_flush(repo: Path) -> None:
    recording.record("use", ["pdf-extract"], repo=repo)
    with (repo / ".git" / STATE_DIR / JOURNAL).open("ab") as f:
        f.write(
            b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"bad host!","n":["pdf-extract"]}\n'
        )
        f.write(b"{garbage\n")
    recording.record("view", ["pdf-extract"], repo=repo)
    loaded = _load(repo)
    assert [p.split(":", 1)[1] for p in loaded.problems] == [
        "2: unreadable journal line skipped",
        "3: unreadable journal line skipped",
    ]
    result = run_cli("flush", "-C", str(repo))
    assert result.code == 0, result
    assert result.err.count("unreadable journal line skipped") == 2
    assert _counts(repo) == {"pdf-extract": (1, 1)}
    assert _load(repo).problems == []


def test_an_uncommitted_skill_off_the_spec_name_rule_is_counted_by_flushes(repo: Path) -> None:
    write_skill(repo, "My_Skill")  # off the spec's rule for `name:`, but a folder list shows
    assert run_cli("record", "use", "My_Skill", "-C", str(repo)).code == 0
    recording.record("use", ["pdf-extract"], repo=repo)
    for _ in range(2):  # before, such a name in the journal failed every flush
        result = run_cli("flush", "-C", str(repo))
        assert result.code == 0, result
    assert _counts(repo) == {"My_Skill": (1, 0), "pdf-extract": (1, 0)}
    assert run_cli("pin", "pdf-extract", "-C", str(repo)).code == 0


# -- pin, unpin, track, adopt --------------------------------------------------------------


def _record_of(repo: Path, name: str) -> UsageRecord:
    return _load(repo).records.get(name) or UsageRecord(name)


@pytest.mark.parametrize(
    ("command", "check"),
    [
        (("pin", "pdf-extract"), lambda r: r.is_pinned),
        (("track", "pdf-extract", "--origin", "hub"), lambda r: r.origin_value == "hub"),
        (("track", "pdf-extract", "--origin", "agent"), lambda r: r.origin_value == "agent"),
        (("adopt", "pdf-extract"), lambda r: r.origin_value == "agent"),
    ],
)
def test_provenance_commands_are_idempotent(
    repo: Path, command: tuple[str, ...], check: Callable[[UsageRecord], bool]
) -> None:
    first = run_cli(*command, "-C", str(repo))
    assert first.code == 0, first
    assert check(_record_of(repo, "pdf-extract"))
    commits = _notes_commits(repo)
    again = run_cli(*command, "-C", str(repo))
    assert again.code == 0, again
    assert "already so: pdf-extract" in again.out
    assert _notes_commits(repo) == commits, "a change that changes nothing writes no commit"
    assert check(_record_of(repo, "pdf-extract"))


def test_unpin_undoes_pin(repo: Path) -> None:
    assert not _record_of(repo, "pdf-extract").is_pinned
    assert run_cli("pin", "pdf-extract", "-C", str(repo)).code == 0
    assert _record_of(repo, "pdf-extract").is_pinned
    assert run_cli("unpin", "pdf-extract", "-C", str(repo)).code == 0
    assert not _record_of(repo, "pdf-extract").is_pinned
    assert "already so" in run_cli("unpin", "pdf-extract", "-C", str(repo)).out


@pytest.mark.parametrize(
    "command",
    [
        ("pin", "nope"),
        ("unpin", "nope"),
        ("adopt", "nope"),
        ("track", "pdf-extract", "nope", "--origin", "hub"),
    ],
)
def test_provenance_of_an_unknown_skill_exits_1_and_changes_nothing(
    repo: Path, command: tuple[str, ...]
) -> None:
    result = run_cli(*command, "-C", str(repo))
    assert result.code == 1
    assert "nope" in result.err
    assert _notes_commits(repo) == 0
    assert _record_of(repo, "pdf-extract").origin is None


@pytest.mark.parametrize("origin", ["hub", "bundled"])
def test_adopt_is_refused_for_hub_and_bundled_skills(repo: Path, origin: str) -> None:
    assert run_cli("track", "docker-build", "--origin", origin, "-C", str(repo)).code == 0
    result = run_cli("adopt", "docker-build", "-C", str(repo))
    assert result.code == 1
    assert origin in result.err and "track --origin user docker-build" in result.err
    assert _record_of(repo, "docker-build").origin_value == origin
    # the way out the message gives works
    assert run_cli("track", "docker-build", "--origin", "user", "-C", str(repo)).code == 0
    assert run_cli("adopt", "docker-build", "-C", str(repo)).code == 0
    assert _record_of(repo, "docker-build").origin_value == "agent"


def test_provenance_keeps_counts_and_folds_pending_events_in_the_same_commit(repo: Path) -> None:
    recording.record("use", ["pdf-extract"], repo=repo)
    recording.record("use", ["pdf-extract"], repo=repo)
    assert (
        run_cli("track", "pdf-extract", "helm-deploy", "--origin", "agent", "-C", str(repo)).code
        == 0
    )
    assert _notes_commits(repo) == 1
    doc = _git_note(repo, "pdf-extract")
    assert doc["origin"]["value"] == "agent"
    assert _note_total(doc, "use_count") == 2
    assert _git_note(repo, "helm-deploy")["origin"]["value"] == "agent"


# -- one notes commit per flush, crash safety ----------------------------------------------


def test_two_thousand_events_then_one_flush_make_exactly_one_notes_commit(repo: Path) -> None:
    for i in range(2000):
        recording.record("use" if i % 4 else "view", [SKILLS[i % 3]], repo=repo)
    assert _notes_commits(repo) == 0
    result = _flush(repo)
    assert (result.events, result.skills) == (2000, 3)
    assert _notes_commits(repo) == 1
    counts = _counts(repo)
    assert sum(u + v for u, v in counts.values()) == 2000
    assert counts["pdf-extract"] == (500, 166)


def test_a_flush_that_died_after_its_notes_commit_does_not_count_twice(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):
        recording.record("use", ["pdf-extract"], repo=repo)
    state = repo / ".git" / STATE_DIR
    real_unlink = Path.unlink

    def unlink_dies_on_segments(self: Path, missing_ok: bool = False) -> None:
        if self.parent.name == SEGMENTS:
            raise OSError("killed before the segment was deleted")
        real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink_dies_on_segments)
    with pytest.raises(OSError, match="killed"):
        _flush(repo)
    monkeypatch.undo()
    assert _notes_commits(repo) == 1, "the notes commit was written"
    assert len(journal.segment_files(state)) == 1, "its segment was left behind"
    assert _counts(repo)["pdf-extract"] == (3, 0), "reading commands do not count it twice"

    recording.record("use", ["pdf-extract"], repo=repo)
    result = _flush(repo)
    assert result.events == 1
    assert journal.segment_files(state) == []
    assert _counts(repo)["pdf-extract"] == (4, 0)
    assert _note_total(_git_note(repo, "pdf-extract"), "use_count") == 4


def test_a_flush_that_died_before_its_notes_commit_loses_nothing(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):
        recording.record("use", ["pdf-extract"], repo=repo)

    def dies(*args: object, **kwargs: object) -> None:
        raise OSError("killed while writing the notes")

    monkeypatch.setattr(ledger, "write_notes", dies)
    with pytest.raises(OSError, match="killed"):
        _flush(repo)
    monkeypatch.undo()
    assert _notes_commits(repo) == 0
    recording.record("use", ["pdf-extract"], repo=repo)  # goes to a new journal
    assert _counts(repo)["pdf-extract"] == (4, 0)
    assert _flush(repo).events == 4
    assert _counts(repo)["pdf-extract"] == (4, 0)
    assert _notes_commits(repo) == 1


def test_a_segment_copied_back_after_a_successful_flush_is_not_folded_again(repo: Path) -> None:
    for _ in range(5):
        recording.record("view", ["helm-deploy"], repo=repo)
    state = repo / ".git" / STATE_DIR
    segment = journal.rotate(state)
    assert segment is not None
    saved = segment.read_bytes()
    _flush(repo)
    segment.write_bytes(saved)  # as if the flush had died just before deleting it
    assert _flush(repo).events == 0
    assert not segment.exists()
    assert _counts(repo)["helm-deploy"] == (0, 5)


# -- real processes at once ----------------------------------------------------------------

RECORDER = """
import sys, time
from gitcurator.telemetry import recording
repo, who, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(count):
    names = ["pdf-extract", "helm-deploy"] if i % 5 == 0 else ["pdf-extract"]
    recording.record("use" if i % 2 else "view", names, repo=repo)
    time.sleep(0.002)
"""

FLUSHER = """
import sys
from pathlib import Path
from gitcurator.telemetry import ledger
from gitcurator.library import open_repo
repo, stop, ready = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
folded = 0
with open_repo(repo) as r:
    ledger.flush(r.store)
    ready.touch()
    while not stop.exists():
        folded += ledger.flush(r.store).events
print(folded)
"""


def test_recorders_and_a_flusher_in_separate_processes_lose_and_double_nothing(
    repo: Path, tmp_path: Path
) -> None:
    recorders, per_recorder = 4, 50
    recording.record("use", ["docker-build"], repo=repo)  # warm the names cache
    stop, ready = tmp_path / "stop", tmp_path / "ready"
    flusher = subprocess.Popen(
        [sys.executable, "-c", FLUSHER, str(repo), str(stop), str(ready)],
        stdout=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert flusher.poll() is None and time.monotonic() < deadline, "flusher did not start"
        time.sleep(0.01)
    writers = [
        subprocess.Popen([sys.executable, "-c", RECORDER, str(repo), str(w), str(per_recorder)])
        for w in range(recorders)
    ]
    assert [w.wait(timeout=60) for w in writers] == [0] * recorders
    stop.touch()
    out, _ = flusher.communicate(timeout=60)
    assert flusher.returncode == 0
    folded_meanwhile = int(out)
    _flush(repo)

    total = recorders * per_recorder
    helm = recorders * len(range(0, per_recorder, 5))
    views = recorders * len(range(0, per_recorder, 2))
    counts = _counts(repo)
    assert counts["pdf-extract"] == (total - views, views)
    assert sum(counts["helm-deploy"]) == helm
    assert counts["docker-build"] == (1, 0)
    assert folded_meanwhile > 0, "the flusher never ran while recorders were writing"
    assert _notes_commits(repo) >= 2
    assert _note_total(_git_note(repo, "pdf-extract"), "use_count") == total - views


def test_threads_of_one_process_recording_at_once_from_a_cold_start(repo: Path) -> None:
    # No host id, no names cache yet: every thread races to create them.
    errors: list[BaseException] = []

    def use() -> None:
        try:
            recording.record("use", ["pdf-extract"], repo=repo)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=use) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    record = _load(repo).records["pdf-extract"]
    assert record.use_count == 8
    assert list(record.hosts) == [host_id(repo / ".git" / STATE_DIR)]


# -- the hot path stays light --------------------------------------------------------------

IMPORT_PROBE = """
import sys
sys.argv = ["gitcurator", "-C", sys.argv[1], "record", "use", "pdf-extract"]
from gitcurator import entry
try:
    entry.main()
except SystemExit as exc:
    code = exc.code
heavy = sorted(
    m for m in sys.modules
    if m.split(".")[0] in {"click", "dulwich", "yaml", "jsonschema", "openai"}
)
print(code, " ".join(heavy))
"""


def _probe_imports(repo: Path) -> tuple[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, str(repo)], capture_output=True, text=True, check=True
    )
    code, _, heavy = done.stdout.strip().partition(" ")
    return code, heavy.split()


def test_record_with_a_warm_names_cache_imports_nothing_heavy(repo: Path) -> None:
    # init leaves the cache warm; a commit by plain git moves HEAD and makes it cold.
    git("commit", "-q", "--allow-empty", "-m", "move HEAD", cwd=repo)
    code, heavy = _probe_imports(repo)  # cold: the cache is rebuilt with dulwich
    assert code == "0"
    assert "dulwich" in {m.split(".")[0] for m in heavy}, "the probe would see a heavy import"
    code, heavy = _probe_imports(repo)
    assert (code, heavy) == ("0", [])
    assert _counts(repo) == {"pdf-extract": (2, 0)}


def test_record_through_python_dash_m_is_cheap_by_importtime(repo: Path) -> None:
    assert run_process("record", "use", "pdf-extract", cwd=repo).returncode == 0
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gitcurator", "record", "use", "pdf-extract"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    imported = {
        line.rsplit("|", 1)[-1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "gitcurator" in imported, textwrap.shorten(done.stderr, 300)
    assert imported.isdisjoint({"click", "dulwich", "yaml", "jsonschema", "openai"})


def test_record_refuses_a_time_in_the_future(repo: Path) -> None:
    result = run_cli(
        "record", "use", "pdf-extract", "--at", "2999-01-01T00:00:00Z", "-C", str(repo)
    )
    assert result.code == 2 and "in the future" in result.err
    assert not (repo / ".git" / "gitcurator" / "journal.jsonl").exists() or (
        "2999" not in (repo / ".git" / "gitcurator" / "journal.jsonl").read_text()
    )

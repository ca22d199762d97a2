"""Usage records as stored: notes plus the journal, flushing, and updates under one lock."""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gitcurator.audit import trailers
from gitcurator.errors import CuratorError
from gitcurator.indented_json import indented
from gitcurator.locks import notes_lock as lock_notes
from gitcurator.statefiles import (
    JOURNAL,
    NOTES_LOCK,
    RECORDS_CACHE,
    unusable,
)
from gitcurator.store import ObjectID, Store
from gitcurator.store.notes import (
    NOTES_REF,
    notes_commit,
    notes_tip,
    write_notes,
)
from gitcurator.telemetry import journal, names_cache, names_index, records_cache
from gitcurator.telemetry.events import Event
from gitcurator.telemetry.fold import apply_events
from gitcurator.telemetry.notes_records import Loaded, load_notes
from gitcurator.telemetry.records import (
    UsageRecord,
    absorbed_of,
    check_doc,
    to_doc,
)
from gitcurator.telemetry.screen import Screened, screen_events
from gitcurator.timeutil import CLOCK_SKEW, format_time, utc_now

_SEGMENT_PREFIX = trailers.FOLDED_SEGMENT + ": "


def load(store: Store) -> Loaded:
    """Records as every reading command sees them: notes plus buffered events."""
    state = store.state_dir()
    # The shared lock keeps a flush from moving events between journal and notes meanwhile.
    with lock_notes(state, shared=True):
        commit = notes_commit(store)
        loaded = load_notes(store)
        # A segment whose flush died after its notes commit is already in the notes: skip it.
        folded = _already_folded(store, commit)
        pending = [s for s in journal.segment_files(state) if s.stem not in folded]
        # A time a flush would drop is not shown meanwhile either (names are checked there).
        latest = format_time(utc_now() + CLOCK_SKEW)
        for path in [*pending, state / JOURNAL]:
            events, problems = journal.read_events(path)
            loaded.problems.extend(problems)
            _apply(loaded.records, screen_events(events, set, latest).events)
    return loaded


def _apply(records: dict[str, UsageRecord], events: Iterable[Event]) -> set[str]:
    # Sources, event-id dedupe and agent writes live in telemetry.fold.
    return apply_events(records, events)


@dataclass(frozen=True, slots=True)
class FlushResult:
    events: int
    skills: int
    commit: str | None
    warnings: list[str] = field(default_factory=list)
    dropped: Screened = field(default_factory=Screened)  # journal events not folded, and why


def flush(store: Store) -> FlushResult:
    """Fold the journal into the notes in one notes commit (crash-safe, exactly once)."""
    state = store.state_dir()
    if state.exists() and not state.is_dir():
        raise unusable(state, None, folder=True)  # events recorded here could not be kept
    journal_file = state / JOURNAL
    if not journal.segment_files(state) and not (
        journal_file.exists() and journal_file.stat().st_size
    ):
        # Nothing buffered: skip the lock and the records load (every pass and commit
        # flushes first, and most of the time there is nothing to fold).
        return FlushResult(0, 0, None)
    return update(store, lambda records: set(), "gitcurator: fold usage events", events_only=True)


def update(
    store: Store,
    change: Callable[[dict[str, UsageRecord]], set[str]],
    subject: str,
    *,
    events_only: bool = False,
) -> FlushResult:
    """Flush pending events and apply `change` to the records, as one notes commit.

    `change` edits the dict in place and returns the names it changed. Holds the notes lock,
    so flushes, pins and imports never interleave. With `events_only` (a flush: `change`
    reads no record) only the records the events name are loaded.
    """
    with notes_lock(store):
        return _update_locked(store, store.state_dir(), change, subject, events_only)


def forget_names(store: Store) -> None:
    """Drop the hot path's names cache: a changed absorbed_into re-points a name, and the
    next `record` rebuilds it from the new notes (its notes key would say so too)."""
    names_cache.forget(store.state_dir())


@contextlib.contextmanager
def notes_lock(store: Store) -> Iterator[None]:
    """The lock every writer of the notes refs holds (flush, pin, import, a pass, sync)."""
    state_dir = store.state_dir()
    try:
        with lock_notes(state_dir):
            yield
    except TimeoutError:
        raise CuratorError(
            f"another gitcurator process has held {state_dir / NOTES_LOCK} for over a "
            "minute; wait for it to finish and run this again"
        ) from None


def _update_locked(
    store: Store,
    state_dir: Path,
    change: Callable[[dict[str, UsageRecord]], set[str]],
    subject: str,
    events_only: bool = False,
) -> FlushResult:
    fresh = journal.rotate(state_dir)
    segments = drop_folded_segments(store, fresh)
    read = [(segment, *journal.read_events(segment)) for segment in segments]
    cache_path = state_dir / RECORDS_CACHE
    # The write below swaps the ref from this commit, the one the records are read from:
    # plain `git notes` takes no lock, and its commit landing meanwhile must be refused,
    # not overwritten with records read before it.
    tip = notes_tip(store)
    before = tip.commit
    subset = None
    if events_only:
        # A flush changes only the records its events name: decode those alone.
        named = {n for _segment, batch, _problems in read for e in batch for n in e.names}
        subset = records_cache.read_subset(cache_path, before.decode() if before else None, named)
    if subset is not None:
        loaded = Loaded(subset.records, subset.problems, subset.unreadable)
    else:
        loaded = load_notes(store)
    records = loaded.records
    absorbed_before = absorbed_of(records)
    events = 0
    touched: set[str] = set()
    skipped: list[str] = []
    latest = format_time(utc_now() + CLOCK_SKEW)
    dropped = Screened()
    for _segment, batch, problems in read:
        skipped += problems  # the segment is deleted below: say so now or never
        screened = screen_events(batch, _known_names(store, records), latest)
        dropped.unknown.update(screened.unknown)
        dropped.future += screened.future
        events += sum(len(e.names) for e in screened.events)
        touched |= _apply(records, screened.events)
    changed = change(records)
    touched |= changed
    commit = None
    warnings = list(skipped) + dropped.warnings(latest)
    if touched:
        lines = [subject, "", f"{len(touched)} skill records updated, {events} events folded.", ""]
        lines += [trailers.trailer(trailers.FOLDED_SEGMENT, s.stem) for s in segments]
        # Each record's document is made once: for its note and for the records cache.
        encoded = {n: _encoded(records[n]) for n in sorted(touched)}
        docs = {n: note for n, (_doc, note) in encoded.items()}
        # A record we could not read is kept beside the new one, never silently replaced.
        kept = {}
        for name in sorted(touched & loaded.unreadable.keys()):
            path = f"unreadable/{name}-{loaded.unreadable[name][:12]}"
            kept[path.encode()] = loaded.unreadable[name].encode()
            warnings.append(
                f"the record of {name} was unreadable; it is kept as {path} in "
                f"{NOTES_REF.decode()} and a new record was started"
            )
        # The notes tree is edited where these notes go, not read and rebuilt whole (0.3 s
        # and more at 10k): write_notes reads it all only when it must rebuild it.
        commit = write_notes(store, tip, docs, "\n".join(lines) + "\n", keep=kept).decode()
        # the complaints about records just replaced no longer apply
        problems_left = [
            p for p in loaded.problems if not any(p.startswith(f"record of {n} ") for n in touched)
        ]
        unreadable_left = {k: v for k, v in loaded.unreadable.items() if k not in touched}
        written = {n: records[n] for n in touched}
        if subset is not None:
            texts = {n: records_cache.doc_text(doc) for n, (doc, _note) in encoded.items()}
            records_cache.write_moved(
                cache_path, subset, commit, written, problems_left, unreadable_left, texts
            )
            names_index.move_absorbed(store, before, commit, written)
        else:
            records_cache.write_whole(cache_path, commit, records, problems_left, unreadable_left)
            absorbed = absorbed_of(records)
            names_index.keep_absorbed(store, commit, absorbed)
        absorbed_after = absorbed_of(records)
        if absorbed_after != absorbed_before:
            forget_names(store)
    for segment in segments:
        segment.unlink()
    return FlushResult(events, len(touched), commit, warnings, dropped)


def _known_names(store: Store, records: dict[str, UsageRecord]) -> Callable[[list[str]], set[str]]:
    """Which of some names are skills: a record's (live, archived or absorbed), then HEAD's
    from the names cache, then the work tree's (a walk, paid only for names neither has)."""

    def known(names: list[str]) -> set[str]:
        ok = {n for n in names if n in records}
        rest = [n for n in names if n not in ok]
        if not rest:
            return ok  # each one has a record (a flush into known skills): nothing to look up
        head = store.head_commit()
        cached = names_cache.lookup(store.state_dir(), head.decode() if head else None, rest)
        if cached:  # `record` keeps this cache of HEAD's names: no walk for committed skills
            ok |= {n for n in rest if n in cached}
            rest = [n for n in rest if n not in cached]
        if rest:
            from gitcurator.library import SkillsRepo, read_config
            from gitcurator.telemetry.names import known_names

            try:
                config = read_config(store.root)
            except CuratorError:
                return set(names)  # cannot tell without the config: drop nothing
            mapping = known_names(SkillsRepo(store, config), include_worktree=True)
            ok |= {n for n in rest if n in mapping or n in mapping.values()}
            rest = [n for n in rest if n not in ok]
        if rest and head is not None:
            # A skill renamed or removed since `record` took the event was a skill then: its
            # event is kept (as a record under that name), not dropped as a hand-made line.
            ok |= set(rest) & _skill_names_in_history(store, head)
        return ok

    return known


def _skill_names_in_history(store: Store, head: bytes) -> set[str]:
    """Every folder name a SKILL.md had in a commit of HEAD's history (the cached walk)."""
    from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER
    from gitcurator.store.history import history_changes

    return {
        posixpath.basename(posixpath.dirname(path))
        for change in history_changes(store, ObjectID(head))
        for path in change.paths
        if posixpath.basename(path) in (SKILL_FILE, SKILL_FILE_LOWER)
    }


def drop_folded_segments(store: Store, fresh: Path | None = None) -> list[Path]:
    """Delete the segments a flush folded but died before deleting; the rest, oldest first.

    Call it holding the notes lock, before the notes ref moves to a history (a sync's) in
    which the dead flush's `Folded-Segment:` trailer is no longer on the first-parent line.
    `fresh` is the segment the caller has just rotated, under that lock.
    """
    segments = journal.segment_files(store.state_dir())
    if all(s == fresh for s in segments):
        # Only a segment named just now (the clock and 128 random bits): no flush before
        # this one can have folded it, and reading the last 50 notes commits costs ~6 ms.
        return segments
    folded = _already_folded(store, notes_commit(store))
    for segment in [s for s in segments if s.stem in folded]:
        segment.unlink()  # folded by a flush that died before it could delete the file
    return [s for s in segments if s.stem not in folded]


def encode_record(record: UsageRecord) -> bytes:
    """A record as its note's JSON (schema-checked): one encoding, so equal records written
    on two machines are byte-equal notes."""
    return _encode(record)


def _encode(record: UsageRecord) -> bytes:
    return _encoded(record)[1]


def _encoded(record: UsageRecord) -> tuple[dict[str, Any], bytes]:
    """A record's document and its note's JSON, schema-checked."""
    doc = to_doc(record)
    problems = check_doc(doc, record.skill)
    if problems:
        raise CuratorError(f"refusing to write an invalid record for {record.skill}: {problems[0]}")
    return doc, (indented(doc) + "\n").encode()


def _already_folded(store: Store, commit: ObjectID | None) -> set[str]:
    from gitcurator.store.notes import recent_messages

    folded = set()
    for message in recent_messages(store, commit):
        for line in message.splitlines():
            if line.startswith(_SEGMENT_PREFIX):
                folded.add(line[len(_SEGMENT_PREFIX) :].strip())
    return folded

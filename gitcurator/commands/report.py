"""`gitcurator report`: the newest pass's REPORT.md, or with --html the library's health page.

The page is loaded here (skill rows, the audit trail and each pass's run.json, the notes'
history for uses per week, the catalogue's descriptions), built and rendered by the pure
`health/` room, and written atomically: never through a symlink, never into a folder that
does not exist (but the state folder, which is made).
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from gitcurator.audit.passes import read_trail, run_order
from gitcurator.audit.trail import Entry
from gitcurator.commands.skill_rows import load_rows
from gitcurator.curation.catalogue_cache import head_catalogue
from gitcurator.curation.token_counter import token_counter
from gitcurator.errors import JSON_READ_ERRORS, CuratorError
from gitcurator.health.model import PassRecord, build_page
from gitcurator.health.page import TEMPLATE, render_page
from gitcurator.health.usage_weeks import UseDelta, use_delta, weekly_heat
from gitcurator.json_values import is_count
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.lifecycle.report import run_paths
from gitcurator.output import Result
from gitcurator.render import utf8_text
from gitcurator.statefiles import (
    REPORT_HTML,
    USAGE_DELTAS_CACHE,
    read_json,
    write_atomic,
    write_cache_json,
)
from gitcurator.store import ObjectID, Store, trees
from gitcurator.store.notes import key_id, read_blobs
from gitcurator.store.notes_history import NoteChange, notes_history
from gitcurator.telemetry.records import UsageRecord, from_doc
from gitcurator.timeutil import format_time

HEAT_WEEKS = 12
HEAT_TOP = 40  # rows of the heat map: the page stays readable and fast at 10,000 skills


def report(start: Path) -> Result:
    """The newest pass's REPORT.md (pending review or merged), or a line saying there is none."""
    with open_repo(start) as repo:
        passes = _passes(repo.store)
        if not passes:
            return Result(
                text="no pass yet (`gitcurator run` makes one)",
                doc={"run_id": None, "report": None},
            )
        newest = max(passes, key=lambda e: run_order(e.run_id or ""))
        run_id = newest.run_id or ""
        path = newest.report or run_paths(run_id)[0]
        raw = trees.file_at(repo.store, ObjectID(newest.commits[0].encode()), path)
    text = raw.decode("utf-8", "replace") if raw else f"pass {run_id} has no {path}"
    return Result(text=text, doc={"run_id": run_id, "status": newest.status, "report": text})


def report_html(start: Path, *, output: Path | None, now: str | None) -> Result:
    """Write the health page (default .git/gitcurator/report.html) and say where."""
    with open_repo(start) as repo:
        target = _target(repo, output)
        loaded = load_rows(repo, now)
        passes = [PassRecord(e, _run_doc(repo.store, e)) for e in _passes(repo.store)]
        deltas = _use_deltas(repo.store, loaded.rows, loaded.now)
        page = build_page(
            library=repo.root.name,
            rows=loaded.rows,
            passes=passes,
            heat=weekly_heat(deltas, loaded.now, HEAT_WEEKS, HEAT_TOP),
            catalogue=head_catalogue(repo, *token_counter()),
            now=loaded.now,
        )
    template = resources.files("gitcurator.health").joinpath(TEMPLATE).read_text("utf-8")
    html = render_page(template, page)
    write_atomic(target, html)
    doc: dict[str, Any] = {
        "path": str(target),
        "bytes": len(html.encode("utf-8")),
        "skills": page.skills,
        "by_state": dict(page.by_state),
        "catalogue": page.catalogue.as_doc(),
        "passes": len(page.passes),
        "pending": page.pending.run_id if page.pending else None,
    }
    return Result(text=str(target), doc=doc, notes=loaded.warnings)


def _target(repo: SkillsRepo, output: Path | None) -> Path:
    """Where the page goes: the state folder by default, else `output`, refused if it is a
    symlink, a folder, a pipe or device, a read-only file or in a folder that does not exist
    (a typo must not scatter files)."""
    if output is None:
        return repo.store.state_dir() / REPORT_HTML
    path = Path(os.path.abspath(output))
    if path.is_symlink():
        raise CuratorError(
            f"{path} is a symbolic link; report --html never writes through one: "
            "remove it or give another -o FILE"
        )
    if path.is_dir():
        raise CuratorError(f"{path} is a folder; give a file name, e.g. -o {path / REPORT_HTML}")
    if path.exists() and not path.is_file():
        # The page is written beside and renamed over: a pipe or a device (-o /dev/null as
        # root) would be replaced by a plain file, not written into.
        raise CuratorError(
            f"{path} is not a regular file (a pipe or a device); report --html writes a file "
            "and renames it into place: give a file name, e.g. -o report.html"
        )
    if path.is_file() and not path.stat().st_mode & 0o222:
        raise CuratorError(
            f"{path} is read-only; report --html keeps it: make it writable "
            f"(`chmod u+w {path}`) or give another -o FILE"
        )
    if not path.parent.is_dir():
        raise CuratorError(
            f"folder {path.parent} does not exist; create it or give another -o FILE"
        )
    return path


def _passes(store: Store) -> list[Entry]:
    return [e for e in read_trail(store) if e.kind == "pass" and e.run_id]


def _run_doc(store: Store, entry: Entry) -> dict[str, Any] | None:
    """A pass's run.json as its report commit (its newest) holds it; None if unreadable."""
    raw = trees.file_at(
        store, ObjectID(entry.commits[0].encode()), run_paths(entry.run_id or "")[1]
    )
    try:
        doc = json.loads(raw) if raw else None
    except JSON_READ_ERRORS:
        return None
    return doc if isinstance(doc, dict) else None


def _use_deltas(store: Store, rows: list[SkillRow], now: datetime) -> list[UseDelta]:
    """What each notes commit of the heat map's weeks added to each skill's uses, through a
    cache by notes commit (a commit's differences never change)."""
    since = format_time(now - timedelta(weeks=HEAT_WEEKS + 1))
    # A name from a folder that is not UTF-8 has no key (nor any note: `record` refuses it).
    names = {key_id(r.name): r.name for r in rows if utf8_text(r.name)}
    cache_path = store.state_dir() / USAGE_DELTAS_CACHE
    cached = _read_deltas(read_json(cache_path))
    fresh: dict[str, list[UseDelta]] = {}
    decoded: dict[bytes, UsageRecord | None] = {}
    for commit in notes_history(store, since, cached):
        if commit.commit in cached:
            fresh[commit.commit] = cached[commit.commit]
            continue
        fresh[commit.commit] = _commit_deltas(store, commit.time, commit.changes, names, decoded)
    if fresh.keys() != cached.keys():
        write_cache_json(cache_path, {c: [_delta_doc(d) for d in ds] for c, ds in fresh.items()})
    # A skill renamed since: its old name is no row, and the page shows rows' names only.
    known = set(names.values())
    return [d for ds in fresh.values() for d in ds if d.skill in known]


def _commit_deltas(
    store: Store,
    time: str,
    changes: tuple[NoteChange, ...],
    names: dict[str, str],
    decoded: dict[bytes, UsageRecord | None],
) -> list[UseDelta]:
    """The uses one notes commit added; `decoded` keeps the records read so far by blob (one
    commit's old note is the next older commit's new one: each is read once)."""
    wanted = [c for c in changes if c.annotated in names]
    blobs = [b for c in wanted for b in (c.before, c.after) if b is not None and b not in decoded]
    for blob, data in read_blobs(store, blobs).items():
        decoded[blob] = _record(data)
    found = []
    for change in wanted:
        name = names[change.annotated]
        after = decoded[change.after]
        before = decoded[change.before] if change.before else None
        if after is None or after.skill != name or (before and before.skill != name):
            continue
        try:
            delta = use_delta(name, time, before, after)
        except (TypeError, ValueError, AttributeError):
            continue  # a hand-edited note whose counters are not numbers
        if delta is not None:
            found.append(delta)
    return found


def _delta_doc(d: UseDelta) -> list[Any]:
    return [d.skill, d.at, d.uses, dict(d.by_source)]


def _read_deltas(doc: object) -> dict[str, list[UseDelta]]:
    """The cache's deltas by notes commit; a damaged entry is dropped (and diffed again)."""
    found: dict[str, list[UseDelta]] = {}
    for commit, items in doc.items() if isinstance(doc, dict) else ():
        try:
            found[commit] = [
                UseDelta(str(s), str(at), n, {str(k): v for k, v in src.items() if is_count(v)})
                for s, at, n, src in items
                if is_count(n)
            ]
        except (TypeError, ValueError, AttributeError):
            continue
    return found


def _record(data: bytes) -> UsageRecord | None:
    # Not schema-checked (2 s at 10,000 notes): a note of the wrong shape is skipped, and
    # `list` and `status` warn about it.
    try:
        doc = json.loads(data)
    except JSON_READ_ERRORS:
        return None
    try:
        return from_doc(doc) if isinstance(doc, dict) else None
    except (KeyError, TypeError, AttributeError):
        return None

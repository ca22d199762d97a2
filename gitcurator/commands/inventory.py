"""`list`, `show`, `status`: what the library holds, with state, provenance and usage."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator.errors import EXIT_OK, CuratorError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.lifecycle.inventory import SkillRow, build_rows, summarise
from gitcurator.render import emit_json, plural
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity
from gitcurator.store.history import skill_histories
from gitcurator.telemetry import ledger
from gitcurator.telemetry.names import known_names
from gitcurator.timeutil import format_time, moment_of


@dataclass(frozen=True, slots=True)
class Inventory:
    rows: list[SkillRow]
    problems: list[str]
    now: datetime


def collect(repo: SkillsRepo, now: str | None) -> Inventory:
    """Every committed skill (live and archived) joined with its record and its history."""
    moment = moment_of(now)
    store = repo.store
    locations = find_skills(store.head_paths(), repo.config.skills_dir)
    loaded = ledger.load(store)
    histories = skill_histories(
        store, {loc.folder: identity(loc) for loc in locations}, repo.config.skills_dir
    )
    rows = build_rows(locations, loaded.records, histories, repo.config.curator, moment)
    return Inventory(rows, loaded.problems, moment)


def _warn(problems: list[str]) -> None:
    for problem in problems:
        print(f"gitcurator: warning: {problem}", file=sys.stderr)


def list_skills(
    start: Path, *, state: str | None, origin: str | None, now: str | None, as_json: bool
) -> int:
    """Print the skills (filtered by state and origin)."""
    with open_repo(start) as repo:
        inv = collect(repo, now)
    _warn(inv.problems)
    rows = [
        r
        for r in inv.rows
        if (not state or r.state == state) and (not origin or r.origin == origin)
    ]
    if as_json:
        emit_json([r.to_json() for r in rows])
        return EXIT_OK
    if not rows:
        print("no skills match" if (state or origin) else "no skills yet")
        return EXIT_OK
    print(_table(rows))
    return EXIT_OK


def _table(rows: list[SkillRow]) -> str:
    header = ("NAME", "STATE", "ORIGIN", "PIN", "USES", "VIEWS", "PATCHES", "LAST ACTIVE")
    body = [
        (
            r.name,
            r.state,
            r.origin,
            "yes" if r.pinned else "",
            str(r.use_count),
            str(r.view_count),
            str(r.patch_count),
            (r.last_activity_at or "-")[:10],
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *body]
    )


def show(start: Path, name: str, *, now: str | None, as_json: bool) -> int:
    """Print one skill (a former name shows the skill it now points to)."""
    with open_repo(start) as repo:
        inv = collect(repo, now)
        row = next((r for r in inv.rows if r.name == name and r.state != "archived"), None)
        row = row or next((r for r in inv.rows if r.name == name), None)
        if row is None:
            target = known_names(repo).get(name)
            row = next((r for r in inv.rows if r.name == target), None)
    _warn(inv.problems)
    if row is None:
        raise CuratorError(f"no skill named {name} in this repository (see `gitcurator list`)")
    if as_json:
        emit_json(row.to_json())
    else:
        if row.name != name:
            print(f"{name} now resolves to {row.name}")
        width = max(len(k) for k in row.to_json())
        for key, value in row.to_json().items():
            print(f"{key.ljust(width)}  {_text(value)}")
    return EXIT_OK


def status(start: Path, *, now: str | None, as_json: bool) -> int:
    """Counts, pins, schedule and the most and least used curated skills."""
    from gitcurator.audit.passes import last_pass
    from gitcurator.curation.schedule_state import read_state
    from gitcurator.lifecycle.schedule import summary

    with open_repo(start) as repo:
        inv = collect(repo, now)
        newest = last_pass(repo.store)
        clock = read_state(ledger.state_of(repo.store), warn=lambda m: _warn([m]))
        schedule = summary(clock, repo.config.curator, inv.now)
    _warn(inv.problems)
    doc: dict[str, Any] = {"now": format_time(inv.now), **summarise(inv.rows)}
    doc.update(
        {
            "last_pass": newest,
            "paused": schedule["paused"],
            "next_due": schedule["next_due"],
            "schedule": schedule,
        }
    )
    if as_json:
        emit_json(doc)
        return EXIT_OK
    print(f"{doc['skills']} skills: " + ", ".join(f"{n} {s}" for s, n in doc["by_state"].items()))
    print("by origin: " + ", ".join(f"{n} {o}" for o, n in doc["by_origin"].items()))
    print(f"pinned: {doc['pinned']}")
    print(f"last pass: {_pass_line(newest)}")
    print(
        f"schedule: {'paused' if doc['paused'] else 'active'}"
        + (
            f", next pass due {doc['next_due']}"
            if doc["next_due"]
            else ", clock not started (the first `gitcurator maybe-run` starts it)"
            if not schedule["last_pass_at"]
            else ""
        )
    )
    if doc["most_used"]:
        print(
            "most used: " + ", ".join(f"{m['name']} ({m['use_count']})" for m in doc["most_used"])
        )
    if doc["least_recently_active"]:
        print(
            "least recently active (curated): "
            + ", ".join(
                f"{m['name']} ({(m['last_activity_at'] or '-')[:10]})"
                for m in doc["least_recently_active"]
            )
        )
    return EXIT_OK


def _pass_line(newest: dict[str, Any] | None) -> str:
    if newest is None:
        return "none yet"
    where = newest["status"] if newest["merged"] else f"branch {newest['branch']}, not merged"
    line = (
        f"{newest['run_id']} ({where}): {newest['archived']} archived, "
        f"{newest['stale']} stale, {newest['reactivated']} active again"
    )
    if newest.get("umbrellas"):
        line += f", {newest['folded']} folded into {plural(newest['umbrellas'], 'umbrella')}"
    return line


def _text(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
    return str(value)

"""`gitcurator status`: counts by state and origin, pins, the schedule, the last pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcurator.audit.passes import last_pass
from gitcurator.commands.skill_rows import load_kept_rows
from gitcurator.curation.catalogue_cache import head_catalogue
from gitcurator.curation.schedule_state import read_state
from gitcurator.curation.token_counter import token_counter
from gitcurator.library import open_repo
from gitcurator.lifecycle.catalogue_cost import cost_text
from gitcurator.lifecycle.inventory import summarise
from gitcurator.lifecycle.schedule import summary
from gitcurator.output import Result, warning_line
from gitcurator.progress import NO_PROGRESS, Progress
from gitcurator.render import plural
from gitcurator.timeutil import format_time


def status(start: Path, *, now: str | None, progress: Progress = NO_PROGRESS) -> Result:
    """Counts, pins, schedule, the most and least used curated skills and what the skill
    catalogue costs (`progress` hears how its SKILL.md files are read)."""
    damaged: list[str] = []
    with open_repo(start) as repo:
        loaded = load_kept_rows(repo, now)
        newest = last_pass(repo.store)
        clock = read_state(repo.store.state_dir(), warn=damaged.append)
        schedule = summary(clock, repo.config.curator, loaded.now)
        catalogue = head_catalogue(repo, *token_counter(), progress)
    doc: dict[str, Any] = {"now": format_time(loaded.now), **summarise(loaded.rows)}
    doc.update(
        {
            "last_pass": newest,
            "paused": schedule["paused"],
            "next_due": schedule["next_due"],
            "schedule": schedule,
            "catalogue": catalogue.as_doc(),
        }
    )
    notes = (*(warning_line(m) for m in damaged), *loaded.warnings)
    return Result(text=_text(doc, schedule), doc=doc, notes=notes)


def _text(doc: dict[str, Any], schedule: dict[str, Any]) -> str:
    lines = [
        f"{doc['skills']} skills: "
        + (", ".join(f"{n} {s}" for s, n in doc["by_state"].items()) or "none yet"),
        "by origin: " + (", ".join(f"{n} {o}" for o, n in doc["by_origin"].items()) or "none"),
        f"pinned: {doc['pinned']}",
        # What every prompt pays for the list of live skills an agent loads.
        f"skill catalogue (live skills' names and descriptions): {cost_text(doc['catalogue'])}",
        f"last pass: {_pass_line(doc['last_pass'])}",
        f"schedule: {'paused' if doc['paused'] else 'active'}"
        + (
            f", next pass due {doc['next_due']}"
            if doc["next_due"]
            else ", clock not started (the first `gitcurator maybe-run` starts it)"
            if not schedule["last_pass_at"]
            else ""
        ),
    ]
    if doc["most_used"]:
        lines.append(
            "most used: " + ", ".join(f"{m['name']} ({m['use_count']})" for m in doc["most_used"])
        )
    if doc["least_recently_active"]:
        lines.append(
            "least recently active (curated): "
            + ", ".join(
                f"{m['name']} ({(m['last_activity_at'] or '-')[:10]})"
                for m in doc["least_recently_active"]
            )
        )
    return "\n".join(lines)


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

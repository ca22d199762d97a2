"""Health pages from data, fast: synthetic skill rows, pass entries and use deltas, built into a
HealthPage (and its HTML) without a repository, for the pure tests and the 10,000-skill page."""

from __future__ import annotations

from datetime import datetime
from importlib import resources
from typing import Any

from gitcurator.audit.trail import MERGED, PENDING, Entry
from gitcurator.health.model import HealthPage, PassRecord, build_page
from gitcurator.health.page import TEMPLATE, render_page
from gitcurator.health.usage_weeks import UseDelta, weekly_heat
from gitcurator.lifecycle.catalogue_cost import catalogue_cost
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.timeutil import parse_time
from support.skill_rows import skill_row

NOW = parse_time("2026-11-30T09:00:00Z")
STATES = ("active", "active", "active", "stale", "archived")


def template() -> str:
    """The packaged template's text."""
    return resources.files("gitcurator.health").joinpath(TEMPLATE).read_text("utf-8")


def many_rows(count: int) -> list[SkillRow]:
    """`count` skills in a mix of states, with uses falling off by rank."""
    return [
        skill_row(
            name=f"skill-{i:05d}",
            path=f"cat-{i % 7}/skill-{i:05d}",
            state=STATES[i % len(STATES)],
            use_count=(count - i) % 97,
            last_activity_at=f"2026-{1 + i % 11:02d}-{1 + i % 27:02d}T10:00:00Z",
        )
        for i in range(count)
    ]


def pass_entry(run_id: str, *, status: str = MERGED, branch: str | None = None) -> Entry:
    """The audit-trail entry of a pass (its newest commit a made-up id)."""
    return Entry(
        "pass",
        f"{run_id[:4]}-{run_id[4:6]}-{run_id[6:8]}T{run_id[9:11]}:00:00Z",
        ("0" * 40,),
        f"curator: report for run {run_id}",
        run_id,
        status=status,
        branch=branch,
    )


def run_doc(
    run_id: str, before: dict[str, int], after: dict[str, int], **extra: Any
) -> dict[str, Any]:
    """A run.json holding what the page reads."""
    now = f"{run_id[:4]}-{run_id[4:6]}-{run_id[6:8]}T{run_id[9:11]}:00:00Z"
    return {"run_id": run_id, "now": now, "counts": {"before": before, "after": after}, **extra}


def page_of(
    rows: list[SkillRow],
    passes: list[PassRecord] | None = None,
    deltas: list[UseDelta] | None = None,
    now: datetime = NOW,
) -> HealthPage:
    """The page of `rows`: by default one merged and one pending pass, and a week of uses."""
    if passes is None:
        passes = [
            PassRecord(
                pass_entry("20261101-090000"),
                run_doc("20261101-090000", {"active": 3}, {"active": 2, "stale": 1}),
            ),
            PassRecord(
                pass_entry("20261129-090000", status=PENDING, branch="curator/20261129-090000"),
                run_doc("20261129-090000", {"active": 2, "stale": 1}, {"active": 2, "archived": 1}),
            ),
        ]
    if deltas is None:
        deltas = [
            UseDelta(r.name, "2026-11-24T10:00:00Z", r.use_count) for r in rows if r.use_count
        ]
    live = [(r.name, f"Use when a task needs {r.name}.") for r in rows if r.state != "archived"]
    return build_page(
        library="sample",
        rows=rows,
        passes=passes,
        heat=weekly_heat(deltas, now),
        catalogue=catalogue_cost(live),
        now=now,
    )


def html_of(page: HealthPage) -> str:
    """The page's HTML from the packaged template."""
    return render_page(template(), page)

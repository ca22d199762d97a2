"""When the demo's skills were committed and used: dated commits and events (pure).

`commits` and `usage` turn the catalogue's days-before-now into moments before the demo's
`now`; the usage is a seeded shuffle, so every demo is the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from gitcurator.demo.catalogue import AGENT, HUB, SKILLS, USER, DemoSkill

_SEED = 20261130


@dataclass(frozen=True, slots=True)
class Commit:
    at: datetime
    origin: str
    message: str
    add: tuple[DemoSkill, ...] = ()
    patch: tuple[DemoSkill, ...] = ()


@dataclass(frozen=True, slots=True)
class Usage:
    at: datetime
    kind: str  # use | view
    name: str


def commits(now: datetime) -> list[Commit]:
    """The library's history, oldest first: the user's own skills (the `init` commit), the
    hub installs, then the agent's learning and editing, in day-sized groups."""
    groups: dict[tuple[int, str], list[DemoSkill]] = {}
    for skill in SKILLS:
        groups.setdefault((skill.born, skill.origin), []).append(skill)
    found: list[Commit] = []
    for (born, origin), skills in groups.items():
        names = ", ".join(s.name for s in skills)
        message = {
            USER: f"Add my own skills: {names}",
            HUB: f"Install from the skills hub: {names}",
        }.get(origin, f"Learn {names}")
        hour = {USER: 9, HUB: 10}.get(origin, 15)
        found.append(Commit(_day(now, born, hour), origin, message, add=tuple(skills)))
    for skill in SKILLS:
        if skill.patch:
            at = _day(now, skill.patch[0], 16)
            message = f"Update {skill.name}: a pitfall learned in use"
            found.append(Commit(at, AGENT, message, patch=(skill,)))
    return sorted(found, key=lambda c: c.at)


def usage(now: datetime) -> list[Usage]:
    """Every use and view event, oldest first: from soon after a skill was committed to its
    `last` use, about `every` days apart (a seeded shuffle, so every demo is the same)."""
    rng = random.Random(_SEED)
    events: list[Usage] = []
    for skill in SKILLS:
        if skill.last is None:
            continue
        at = _day(now, skill.last, 11) + timedelta(hours=rng.uniform(-2, 2))
        start = _day(now, skill.born, 18)
        views = bool(skill.files)
        while at > start:
            events.append(Usage(min(at, now), "use", skill.name))
            if views and rng.random() < 0.4:
                events.append(Usage(min(at + timedelta(minutes=3), now), "view", skill.name))
            at -= timedelta(days=skill.every * rng.uniform(0.5, 1.5))
    return sorted(events, key=lambda e: (e.at, e.name, e.kind))


def _day(now: datetime, days_ago: int, hour: int) -> datetime:
    """`days_ago` days before `now`, at `hour` o'clock of that day (never after `now`)."""
    moment = (now - timedelta(days=days_ago)).replace(hour=hour, minute=0, second=0)
    return min(moment, now)

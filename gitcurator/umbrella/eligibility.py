"""Which skills the umbrella pass may fold, and the table of reasons a skill is left out (pure).

SPEC §3 and §4.2: only live, curated, unpinned, unprotected skills at least `min_age_days`
old; a skill whose age is unknown counts as too young. Each reason has one code (what
`clusters --json` counts) and two wordings: why one skill may not be folded (a refused
umbrella says it) and what a count of such skills is (`clusters` says it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from gitcurator.config import CuratorPolicy
from gitcurator.timeutil import days_between

if TYPE_CHECKING:
    from gitcurator.lifecycle.inventory import SkillRow

ARCHIVED = "archived"
NOT_CURATED = "not_curated"
PINNED = "pinned"
PROTECTED = "protected"
TOO_YOUNG = "too_young"
UNREADABLE = "unreadable"  # eligible, but its SKILL.md cannot be read from the commit


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason a skill is left out: `one` says it of a skill (it may name the skill's
    `{origin}`), `counted` follows a number of skills."""

    code: str
    one: str
    counted: str


REASONS: Mapping[str, Reason] = {
    r.code: r
    for r in (
        Reason(ARCHIVED, "archived", "archived"),
        Reason(
            NOT_CURATED,
            "origin {origin}: only agent-made skills are curated",
            "not curated (user, hub or bundled)",
        ),
        Reason(PINNED, "pinned", "pinned"),
        Reason(PROTECTED, "protected by the config's protect: list", "protected"),
        Reason(TOO_YOUNG, "younger than min_age_days", "younger than min_age_days"),
        Reason(UNREADABLE, "unreadable", "unreadable"),
    )
}


def left_out_because(row: SkillRow, policy: CuratorPolicy, now: datetime) -> str | None:
    """The code of why the umbrella pass must leave a skill alone (None: it is a candidate)."""
    if row.state == ARCHIVED:
        return ARCHIVED
    if not row.curated:
        return NOT_CURATED
    if row.pinned:
        return PINNED
    if row.protected:
        return PROTECTED
    if row.created_at is None or days_between(row.created_at, now) < policy.min_age_days:
        return TOO_YOUNG
    return None


def why_left_out(code: str, origin: str) -> str:
    """Why one skill (of `origin`) may not be folded, in words."""
    reason = REASONS.get(code)
    return (reason.one if reason else code).format(origin=origin)


def counted_left_out(counts: Mapping[str, int]) -> str:
    """`3 pinned, 1 unreadable`: how many skills were left out for each reason."""
    return ", ".join(
        f"{n} {REASONS[code].counted if code in REASONS else code}" for code, n in counts.items()
    )


def ineligible(rows: Sequence[SkillRow], policy: CuratorPolicy, now: datetime) -> dict[str, str]:
    """name -> why, for every skill the umbrella pass must leave alone."""
    found = {}
    for row in rows:
        code = left_out_because(row, policy, now)
        if code is not None:
            found[row.name] = why_left_out(code, row.origin)
    return found

"""The deterministic lifecycle rules of SPEC §4.1 (pure: data and `now` in, verdicts out)."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from gitcurator.config import CuratorPolicy
from gitcurator.frozen_rows import frozen_row
from gitcurator.timeutil import days_between, latest

ACTIVE, STALE, ARCHIVED = "active", "stale", "archived"


def is_curated(origin: str, policy: CuratorPolicy) -> bool:
    """Only agent-made skills are curated; bundled ones only with prune_builtins."""
    return origin == "agent" or (origin == "bundled" and policy.prune_builtins)


def is_protected(name: str, path: str, policy: CuratorPolicy) -> bool:
    """Named (or globbed, by name or path) in the config's `protect:` list."""
    if not policy.protect:
        return False
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(path, p) for p in policy.protect)


def last_activity(
    last_used_at: str | None, last_viewed_at: str | None, last_patched_at: str | None
) -> str | None:
    """Activity is the newest of use, view and patch."""
    return latest(last_used_at, last_viewed_at, last_patched_at)


def idle_days(last_activity_at: str | None, created_at: str | None, now: datetime) -> float | None:
    """Days since the anchor (last activity, else creation); None when neither is known."""
    anchor = last_activity_at or created_at
    return None if anchor is None else days_between(anchor, now)


def state_of(
    *,
    archived: bool,
    managed: bool,
    last_activity_at: str | None,
    created_at: str | None,
    policy: CuratorPolicy,
    now: datetime,
) -> str:
    """A skill's state at `now`. Only skills the curator manages (curated, not pinned, not
    protected) go stale; archived skills stay archived until restored."""
    if archived:
        return ARCHIVED
    if not managed:
        return ACTIVE
    idle = idle_days(last_activity_at, created_at, now)
    return STALE if idle is not None and idle > policy.stale_after_days else ACTIVE


@frozen_row
class SkillFacts:
    """What the planner knows of one live skill."""

    name: str
    path: str
    origin: str
    pinned: bool
    last_activity_at: str | None
    created_at: str | None
    recorded_state: str | None = None  # the state the previous pass left it in


@dataclass(frozen=True, slots=True)
class Transition:
    name: str
    path: str
    before: str
    after: str
    reason: str


@dataclass(frozen=True, slots=True)
class Skip:
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class Kept:
    """A skill due for archiving, kept because live skills or reference files refer to it."""

    name: str
    path: str
    reason: str
    referrers: tuple[str, ...]  # `path:line` of each reference

    def to_json(self) -> dict[str, object]:
        """As run.json lists it under `kept`."""
        return {
            "skill": self.name,
            "path": self.path,
            "reason": self.reason,
            "referrers": list(self.referrers),
        }


@dataclass(frozen=True, slots=True)
class LifecyclePlan:
    """The lifecycle's verdicts at `now`: every transition, every skill left alone, and every
    skill kept from the archive by references to it."""

    now: datetime
    transitions: tuple[Transition, ...]
    skipped: tuple[Skip, ...]
    kept: tuple[Kept, ...] = ()

    def names(self, after: str, before: str | None = None) -> list[str]:
        """Skills whose transition ends in `after` (and starts in `before`, if given)."""
        return [
            t.name
            for t in self.transitions
            if t.after == after and (before is None or t.before == before)
        ]

    @property
    def archived(self) -> list[Transition]:
        """The transitions that archive a skill."""
        return [t for t in self.transitions if t.after == ARCHIVED]


def plan_lifecycle(
    skills: Sequence[SkillFacts],
    policy: CuratorPolicy,
    now: datetime,
    referenced: Mapping[str, Sequence[Referrer]] | None = None,
) -> LifecyclePlan:
    """Every transition the deterministic pass makes at `now`, and every skill it leaves be.

    `referenced` maps a skill to the live skills and reference files that refer to it: such a
    skill is not archived (it goes stale as any other) unless `archive_referenced` is set."""
    transitions: list[Transition] = []
    skipped: list[Skip] = []
    kept: list[Kept] = []
    idle_of = _idle_memo(now)
    refs = (
        {}
        if policy.archive_referenced or not referenced
        else _keeping(skills, policy, idle_of, referenced)
    )
    for skill in sorted(skills, key=lambda s: s.name):
        why_not = _exempt(skill, policy)
        if why_not:
            skipped.append(Skip(skill.name, why_not))
            continue
        before = skill.recorded_state or ACTIVE
        idle = idle_of(skill)
        if idle is None:
            skipped.append(Skip(skill.name, "no creation date or activity is known"))
            continue
        if skill.last_activity_at is None and idle <= policy.stale_after_days:
            skipped.append(
                Skip(
                    skill.name,
                    f"too young: never used, {idle:.0f} days old "
                    f"(stale_after_days={policy.stale_after_days:g})",
                )
            )
            continue
        since = _since(skill)
        if idle > policy.archive_after_days:
            reason = (
                f"idle {idle:.0f} days ({since}), over "
                f"archive_after_days={policy.archive_after_days:g}"
            )
            referrers = tuple(refs.get(skill.name, ()))
            if not referrers:
                transitions.append(Transition(skill.name, skill.path, before, ARCHIVED, reason))
                continue
            kept.append(Kept(skill.name, skill.path, _kept_reason(reason, referrers), referrers))
        # A kept skill is idle past stale_after_days too (archive_after_days is not smaller).
        if idle > policy.stale_after_days:
            if before != STALE:
                reason = (
                    f"idle {idle:.0f} days ({since}), over "
                    f"stale_after_days={policy.stale_after_days:g}"
                )
                transitions.append(Transition(skill.name, skill.path, before, STALE, reason))
        elif before == STALE:
            reason = f"active again: {since}"
            transitions.append(Transition(skill.name, skill.path, STALE, ACTIVE, reason))
    return LifecyclePlan(now, tuple(transitions), tuple(skipped), tuple(kept))


# Who refers to a skill: (the referring skill's name, or "" for a reference file; `path:line`).
Referrer = tuple[str, str]


def _idle_memo(now: datetime) -> Callable[[SkillFacts], float | None]:
    """idle_days of a skill at `now`, each anchor's time parsed once (a library's skills
    share few: whole batches are created, or used, at one moment)."""
    known: dict[str, float] = {}

    def idle_of(skill: SkillFacts) -> float | None:
        anchor = skill.last_activity_at or skill.created_at
        if anchor is None:
            return None
        days = known.get(anchor)
        if days is None:
            days = known[anchor] = days_between(anchor, now)
        return days

    return idle_of


def _keeping(
    skills: Sequence[SkillFacts],
    policy: CuratorPolicy,
    idle_of: Callable[[SkillFacts], float | None],
    referenced: Mapping[str, Sequence[Referrer]],
) -> dict[str, tuple[str, ...]]:
    """The skills due for archiving that references keep, each with where it is referred to.

    A reference from a skill this pass archives keeps nothing: two idle skills naming each
    other (a cycle) are both archived. So the kept are the due skills that a reference file,
    a skill staying live, or (in turn) a kept skill refers to."""
    due = {s.name for s in skills if _due(s, policy, idle_of)}
    by_source: dict[str, list[str]] = {}
    for target in sorted(due):
        for src, _ in referenced.get(target, ()):
            by_source.setdefault(src, []).append(target)
    waiting = [t for src, targets in by_source.items() if src not in due for t in targets]
    kept: dict[str, tuple[str, ...]] = {}
    while waiting:
        name = waiting.pop()
        if name not in kept:
            kept[name] = ()
            waiting += by_source.get(name, [])
    for name in kept:
        kept[name] = tuple(
            sorted({w for src, w in referenced[name] if src not in due or src in kept})
        )
    return kept


def _due(
    skill: SkillFacts, policy: CuratorPolicy, idle_of: Callable[[SkillFacts], float | None]
) -> bool:
    """Whether the skill would be archived, references aside."""
    if _exempt(skill, policy):
        return False
    idle = idle_of(skill)
    return idle is not None and idle > policy.archive_after_days


def _kept_reason(reason: str, referrers: Sequence[str]) -> str:
    shown = ", ".join(referrers[:3]) + (
        f" and {len(referrers) - 3} more" if len(referrers) > 3 else ""
    )
    return f"{reason}, but referred to by {shown} (curator.archive_referenced is off)"


def _exempt(skill: SkillFacts, policy: CuratorPolicy) -> str | None:
    if skill.pinned:
        return "pinned"
    if is_protected(skill.name, skill.path, policy):
        return "protected by the config's protect: list"
    if not is_curated(skill.origin, policy):
        if skill.origin == "bundled":
            return "bundled with the agent (prune_builtins is off)"
        return f"origin {skill.origin}: only agent-made skills are curated"
    return None


def _days(days: float) -> str:
    # Whole days read best, but "idle 30 days, over 30" must not appear: 30.4 is shown as such.
    return f"{days:.0f}" if abs(days - round(days)) < 0.05 else f"{days:.1f}"


def _since(skill: SkillFacts) -> str:
    if skill.last_activity_at:
        return f"last activity {skill.last_activity_at[:10]}"
    return f"never used, created {(skill.created_at or '?')[:10]}"

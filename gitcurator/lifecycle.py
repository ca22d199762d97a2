"""The deterministic lifecycle rules of SPEC §4.1 (pure: data and `now` in, verdicts out)."""

from __future__ import annotations

import fnmatch
from datetime import datetime

from gitcurator.config import CuratorPolicy
from gitcurator.timeutil import days_between, latest

ACTIVE, STALE, ARCHIVED = "active", "stale", "archived"


def is_curated(origin: str, policy: CuratorPolicy) -> bool:
    """Only agent-made skills are curated; bundled ones only with prune_builtins."""
    return origin == "agent" or (origin == "bundled" and policy.prune_builtins)


def is_protected(name: str, path: str, policy: CuratorPolicy) -> bool:
    """Named (or globbed, by name or path) in the config's `protect:` list."""
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
    idle = idle_days(last_activity_at, created_at, now)
    if managed and idle is not None and idle > policy.stale_after_days:
        return STALE
    return ACTIVE

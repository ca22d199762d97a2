"""One row per skill: where it is, its state, provenance and usage (pure)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import field, fields
from datetime import UTC, datetime, timedelta
from operator import attrgetter
from typing import Any

from gitcurator.config import CuratorPolicy
from gitcurator.frozen_rows import frozen_row
from gitcurator.lifecycle.rules import (
    ACTIVE,
    ARCHIVED,
    STALE,
    is_curated,
    is_protected,
    last_activity,
    state_of,
)
from gitcurator.lifecycle.skill_history import EMPTY, SkillHistory
from gitcurator.skills.document import SkillLocation
from gitcurator.skills.identity import identity
from gitcurator.telemetry import sources
from gitcurator.telemetry.records import Imported, UsageRecord
from gitcurator.timeutil import latest, parse_time


@frozen_row
class SkillRow:
    name: str
    path: str
    state: str
    origin: str
    pinned: bool
    curated: bool
    protected: bool
    use_count: int
    view_count: int
    patch_count: int
    last_used_at: str | None
    last_viewed_at: str | None
    last_patched_at: str | None
    last_activity_at: str | None
    created_at: str | None
    archived_at: str | None
    absorbed_into: str | None
    sources: Mapping[str, int] = field(default_factory=dict)  # uses by who reported them
    wanted_count: int = 0  # uses asked for since it was archived (archived rows only)

    def to_json(self) -> dict[str, Any]:
        # dataclasses.asdict deep-copies every value: 1 s for 10,000 rows.
        doc = dict(zip(FIELDS, row_values(self), strict=True))
        # Only when some use came from a named source: rows of libraries no agent reported to
        # read as they did before sources existed.
        if not self.sources:
            del doc["sources"]
        else:
            doc["sources"] = dict(self.sources)
        if self.state != "archived":
            del doc["wanted_count"]  # live rows read as they did before wanted existed
        return doc


def build_rows(
    locations: Sequence[SkillLocation],
    records: Mapping[str, UsageRecord],
    histories: Mapping[str, SkillHistory],
    policy: CuratorPolicy,
    now: datetime,
) -> list[SkillRow]:
    """Rows for every skill (live and archived), sorted by name."""
    rows = [_row(loc, records, histories, policy, now) for loc in locations]
    return sorted(rows, key=lambda r: (r.name, r.path))


def _row(
    loc: SkillLocation,
    records: Mapping[str, UsageRecord],
    histories: Mapping[str, SkillHistory],
    policy: CuratorPolicy,
    now: datetime,
) -> SkillRow:
    name = identity(loc)
    record = records.get(name) or UsageRecord(name)
    history = histories.get(name, EMPTY)
    # Values an importer brought predate this repository's history and add to it.
    imported = record.imported or Imported()
    created = min((t for t in (history.created_at, imported.created_at) if t), default=None)
    patches = history.patch_count + (imported.patch_count or 0)
    by_host = [h.sources for h in record.hosts.values()]
    counts = _usage(record, by_host)
    # An edit an agent reported is activity even before (or without) a commit of it.
    patched = latest(history.last_patched_at, imported.last_patched_at, counts.last_patched_at)
    used, viewed = counts.last_used_at, counts.last_viewed_at
    activity = last_activity(used, viewed, patched)
    origin = record.origin_value
    curated = is_curated(origin, policy)
    protected = is_protected(name, loc.folder, policy)
    managed = _managed(curated, record.is_pinned, protected)
    return SkillRow(
        name=name,
        path=loc.folder,
        state=state_of(
            archived=loc.archived,
            managed=managed,
            last_activity_at=activity,
            created_at=created,
            policy=policy,
            now=now,
        ),
        origin=origin,
        pinned=record.is_pinned,
        curated=curated,
        protected=protected,
        use_count=counts.use_count,
        view_count=counts.view_count,
        patch_count=patches,
        last_used_at=used,
        last_viewed_at=viewed,
        last_patched_at=patched,
        last_activity_at=activity,
        created_at=created,
        archived_at=record.archived_at if loc.archived else None,
        absorbed_into=record.absorbed_into,
        sources=counts.by_source,
        wanted_count=record.wanted_count if loc.archived else 0,
    )


def _managed(curated: bool, pinned: bool, protected: bool) -> bool:
    """Whether the curator may move the skill: only such skills go stale."""
    return curated and not pinned and not protected


FIELDS = tuple(f.name for f in fields(SkillRow))
FIELD_TYPES = {f.name: str(f.type) for f in fields(SkillRow)}  # annotations, as text
row_values = attrgetter(*FIELDS)  # a row's fields in FIELDS order, in one C call
_STATE = FIELDS.index("state")


def encoded_parts(row: SkillRow) -> tuple[str, str] | None:
    """json.dumps(row.to_json(), ensure_ascii=False) split around the state's value: the
    row's text at any state that leaves it archived (or not) is parts[0] + the state as a JSON
    string + parts[1]. None if the text does not begin as to_json orders its fields."""
    text = json.dumps(row.to_json(), ensure_ascii=False)
    name, path = (json.dumps(v, ensure_ascii=False) for v in (row.name, row.path))
    head = f'{{"name": {name}, "path": {path}, "state": '
    value = json.dumps(row.state)
    if not text.startswith(head + value):
        return None
    return head, text[len(head) + len(value) :]


def idle_anchor(row: SkillRow) -> int | None:
    """Microseconds from the epoch to the moment the row's idleness counts from (last
    activity, else creation) when its state moves with the clock, else None (archived, not
    managed, or no moment known): with it rows_at judges the state without parsing a time."""
    if row.state == ARCHIVED or not _managed(row.curated, row.pinned, row.protected):
        return None
    anchor = row.last_activity_at or row.created_at
    return None if anchor is None else (parse_time(anchor) - _EPOCH) // _MICROSECOND


def rows_at(
    kept: Sequence[Sequence[Any]],
    anchors: Sequence[int | None],
    policy: CuratorPolicy,
    now: datetime,
) -> list[SkillRow]:
    """The rows whose fields are `kept` (row_values of rows built at another moment), each
    state judged again at `now` from its idle_anchor: what state_of says, computed in exact
    integer microseconds as its timedelta division does."""
    now_us = (now - _EPOCH) // _MICROSECOND
    after = policy.stale_after_days
    rows = []
    for values, anchor in zip(kept, anchors, strict=True):
        was = values[_STATE]
        if anchor is None:
            state = ARCHIVED if was == ARCHIVED else ACTIVE
        else:
            state = STALE if (now_us - anchor) / _DAY_US > after else ACTIVE
        if state == was:
            rows.append(SkillRow(*values))
        else:
            moved = list(values)
            moved[_STATE] = state
            rows.append(SkillRow(*moved))
    return rows


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_DAY_US = 86_400_000_000


@frozen_row
class _Usage:
    use_count: int
    view_count: int
    last_used_at: str | None
    last_viewed_at: str | None
    last_patched_at: str | None  # the newest edit an agent reported
    by_source: dict[str, int]


def _usage(record: UsageRecord, by_host: list[sources.PerHost]) -> _Usage:
    """The record's totals. One host (nearly every record) repeats no event, so its counters
    are the totals: the cross-host sums and id sets cost 40% of `list` at 10,000 skills."""
    if len(record.hosts) == 1:
        (host,) = record.hosts.values()
        return _Usage(
            host.use_count,
            host.view_count,
            host.last_used_at or None,
            host.last_viewed_at or None,
            latest(*(c.last_patched_at for c in host.sources.values())) if host.sources else None,
            {s: c.use_count for s, c in sorted(host.sources.items()) if c.use_count},
        )
    return _Usage(
        record.use_count,
        record.view_count,
        record.last_used_at,
        record.last_viewed_at,
        sources.last_patched_at(by_host),
        sources.uses_by_source(by_host),
    )


def summarise(rows: Sequence[SkillRow], top: int = 5) -> dict[str, Any]:
    """Counts by state and origin, pinned count, most used and least recently active."""
    live = [r for r in rows if r.state != "archived"]
    curated = [r for r in live if r.curated and not r.pinned and not r.protected]
    by_use = sorted(live, key=lambda r: (-r.use_count, r.name))
    by_idle = sorted(curated, key=lambda r: (r.last_activity_at or r.created_at or "", r.name))
    return {
        "skills": len(rows),
        "by_state": dict(sorted(Counter(r.state for r in rows).items())),
        "by_origin": dict(sorted(Counter(r.origin for r in rows).items())),
        "pinned": sum(r.pinned for r in rows),
        "most_used": [{"name": r.name, "use_count": r.use_count} for r in by_use[:top]],
        "least_recently_active": [
            {"name": r.name, "last_activity_at": r.last_activity_at or r.created_at}
            for r in by_idle[:top]
        ],
    }

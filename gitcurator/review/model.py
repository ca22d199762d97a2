"""What `review` shows of a pass (pure values; `review/stored` reads them from run.json)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.lifecycle.rules import ARCHIVED


@dataclass(frozen=True, slots=True)
class Moved:
    """A skill the lifecycle moved: archived, marked stale or active again."""

    skill: str
    path: str
    reason: str
    last_activity: str  # a date, `never used (created <date>)`, or `unknown`
    archived_path: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        doc = {"skill": self.skill, "path": self.path, "reason": self.reason}
        doc["last_activity"] = self.last_activity
        if self.archived_path is not None:
            doc["archived_path"] = self.archived_path
        return doc


@dataclass(frozen=True, slots=True)
class Restored:
    """An archived skill the pass proposes back, because agents asked for it."""

    skill: str
    source: str  # its folder under .archive/
    target: str  # the live folder it goes back to
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"skill": self.skill, "from": self.source, "to": self.target, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Folded:
    """A skill an umbrella took in: absorbed, or demoted to a file of the umbrella."""

    skill: str
    retention: float | None  # share of its content the umbrella kept (None: not stored)
    demoted_to: str | None = None  # repo-relative file (None: absorbed)

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"skill": self.skill, "retention": self.retention, "demoted_to": self.demoted_to}


@dataclass(frozen=True, slots=True)
class UmbrellaReview:
    """One umbrella of the pass and what it took in."""

    name: str
    path: str
    existing: bool
    reason: str
    commit: str | None
    folded: tuple[Folded, ...]

    @property
    def absorbed(self) -> list[str]:
        """The skills it absorbed (not demoted)."""
        return [f.skill for f in self.folded if f.demoted_to is None]

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "umbrella": self.name,
            "path": self.path,
            "existing": self.existing,
            "reason": self.reason,
            "commit": self.commit,
            "folded": [f.to_json() for f in self.folded],
        }


@dataclass(frozen=True, slots=True)
class PassReview:
    """A pass in one screen: counts, moves, umbrellas, refusals and the catalogue's cost."""

    run_id: str
    branch: str
    status: str  # `pending review` or `merged`
    now: str
    base: str | None  # the default branch's commit the pass started from
    tip: str
    counts_before: Mapping[str, int]
    counts_after: Mapping[str, int]
    archived: tuple[Moved, ...]
    stale: tuple[Moved, ...]
    reactivated: tuple[Moved, ...]
    umbrellas: tuple[UmbrellaReview, ...]
    refused: tuple[tuple[str, str], ...]  # (what, reason)
    left_alone: int
    catalogue_before: CatalogueCost | None
    catalogue_after: CatalogueCost | None
    merge_refusal: str | None = None  # why `merge` would refuse the branch as it stands
    kept: tuple[tuple[str, str], ...] = ()  # (skill, reason): due to archive, referred to
    restores: tuple[Restored, ...] = ()  # archived skills wanted back

    @property
    def live_before(self) -> int:
        """Skills not archived before the pass."""
        return live(self.counts_before)

    @property
    def live_after(self) -> int:
        """Skills not archived after it."""
        return live(self.counts_after)

    def to_json(self) -> dict[str, Any]:
        """`review --json`."""
        catalogue = None
        if self.catalogue_before is not None and self.catalogue_after is not None:
            catalogue = {
                "before": self.catalogue_before.as_doc(),
                "after": self.catalogue_after.as_doc(),
            }
        return {
            "run_id": self.run_id,
            "branch": self.branch,
            "status": self.status,
            "now": self.now,
            "base_commit": self.base,
            "tip": self.tip,
            "counts": {
                "before": dict(self.counts_before),
                "after": dict(self.counts_after),
                "live_before": self.live_before,
                "live_after": self.live_after,
            },
            "archived": [m.to_json() for m in self.archived],
            "stale": [m.to_json() for m in self.stale],
            "reactivated": [m.to_json() for m in self.reactivated],
            "umbrellas": [u.to_json() for u in self.umbrellas],
            "refused": [{"what": w, "reason": r} for w, r in self.refused],
            "left_alone": self.left_alone,
            "catalogue": catalogue,
            "merge_refusal": self.merge_refusal,
            "kept": [{"skill": k, "reason": r} for k, r in self.kept],
            "restores": [r.to_json() for r in self.restores],
        }


def live(counts: Mapping[str, int]) -> int:
    """Skills in any state but archived."""
    return sum(n for state, n in counts.items() if state != ARCHIVED)


def summary_counts(review: PassReview) -> Sequence[tuple[str, int, int]]:
    """(state, before, after) for every state either side has."""
    states = sorted(set(review.counts_before) | set(review.counts_after))
    return [(s, review.counts_before.get(s, 0), review.counts_after.get(s, 0)) for s in states]

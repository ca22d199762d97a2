"""The plan step of a pass: every decision, made before anything is written.

The lifecycle's transitions (deterministic), where each archived skill goes, and, with a
model, the umbrella step planned against the tree as the archive commit will leave it. The
PassPlan holds everything the apply step writes; a dry run is this plan, reported.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

from gitcurator.audit.passes import BRANCH_PREFIX
from gitcurator.curation.pass_inputs import PassInputs
from gitcurator.lifecycle.catalogue_cost import CatalogueChange
from gitcurator.lifecycle.restore_proposals import RestoreProposal, planned_restores
from gitcurator.lifecycle.rules import ACTIVE, ARCHIVED, LifecyclePlan, SkillFacts, plan_lifecycle
from gitcurator.skills.archive_paths import archive_targets

if TYPE_CHECKING:
    # The umbrella step's modules load only when a model is asked (a tenth of a second of
    # imports a pass without --consolidate does not need).
    from gitcurator.curation.cluster_review import ClusterProgress, Model
    from gitcurator.curation.umbrella_plan import Fold, Refusal, UmbrellaPlan


@dataclass(frozen=True, slots=True)
class PassPlan:
    """A pass, decided: what it read, the lifecycle's verdicts, where archived skills go, and
    the umbrella step (None when it was not asked for)."""

    inputs: PassInputs
    lifecycle: LifecyclePlan
    states_before: Mapping[str, str]  # every skill -> its state before the pass
    archived_paths: Mapping[str, str]  # archived skill -> its folder under .archive/
    umbrellas: UmbrellaPlan | None = None
    catalogue: CatalogueChange | None = None  # curation/pass_catalogue adds it
    restores: tuple[RestoreProposal, ...] = ()  # archived skills wanted back (their moves)

    @property
    def run_id(self) -> str:
        return self.inputs.run_id

    @property
    def now(self) -> datetime:
        return self.inputs.now

    @property
    def folds(self) -> tuple[Fold, ...]:
        """The umbrellas to commit, in order."""
        return self.umbrellas.folds if self.umbrellas else ()

    @property
    def refused(self) -> tuple[Refusal, ...]:
        return self.umbrellas.refused if self.umbrellas else ()

    @property
    def archive_moves(self) -> list[tuple[str, str]]:
        """(folder, folder under .archive/) of each skill the lifecycle archives."""
        return [(t.path, self.archived_paths[t.name]) for t in self.lifecycle.archived]

    @property
    def branch(self) -> str | None:
        """The curator branch the pass is published as; None when it has nothing to say."""
        says = self.lifecycle.transitions or self.folds or self.refused or self.restores
        return BRANCH_PREFIX + self.run_id if says else None

    @property
    def restore_moves(self) -> list[tuple[str, str]]:
        """(folder under .archive/, live folder) of each skill proposed back."""
        return [(r.source, r.target) for r in self.restores]

    @property
    def state_changes(self) -> dict[str, str]:
        """skill -> stale or active: the states recorded in the notes for the next pass."""
        return {t.name: t.after for t in self.lifecycle.transitions if t.after != ARCHIVED}

    @property
    def problems(self) -> tuple[str, ...]:
        """What could not be read (records, SKILL.md files), in words."""
        return self.inputs.problems + (self.umbrellas.problems if self.umbrellas else ())

    @property
    def llm_failed(self) -> bool:
        """The umbrella step asked about clusters and none got a usable plan."""
        return self.umbrellas is not None and self.umbrellas.failed


def plan_pass(
    inputs: PassInputs, model: Model | None = None, progress: ClusterProgress | None = None
) -> PassPlan:
    """The whole pass at `inputs.now`; with a `model`, the umbrella step too (asking the
    model is part of planning: it writes nothing)."""
    policy = inputs.config.curator
    facts = [
        SkillFacts(
            r.name,
            r.path,
            r.origin,
            r.pinned,
            r.last_activity_at,
            r.created_at,
            inputs.recorded.get(r.name),
        )
        for r in inputs.rows
        if r.state != ARCHIVED
    ]
    referenced = inputs.references.live_referrers(inputs.aliases)
    lifecycle = plan_lifecycle(facts, policy, inputs.now, referenced)
    before = {
        r.name: ARCHIVED if r.state == ARCHIVED else inputs.recorded.get(r.name, ACTIVE)
        for r in inputs.rows
    }
    archived_paths = archive_targets(
        [(t.name, t.path) for t in lifecycle.archived], inputs.entries, inputs.config.skills_dir
    )
    restores = planned_restores(inputs.rows, inputs.entries, inputs.read, inputs.config)
    plan = PassPlan(inputs, lifecycle, before, archived_paths, restores=tuple(restores))
    if model is None:
        return plan
    from gitcurator.curation.cluster_review import review_clusters
    from gitcurator.curation.fold_references import with_reference_rewrites

    retired = {t.name for t in lifecycle.archived}
    rows = [replace(r, state=ARCHIVED) if r.name in retired else r for r in inputs.rows]
    umbrellas = review_clusters(
        rows,
        moved_entries(inputs.entries, plan.archive_moves + plan.restore_moves),
        inputs.read,
        inputs.config,
        inputs.now,
        model,
        progress,
    )
    archived = [folder for folder, _ in plan.archive_moves]
    return replace(plan, umbrellas=with_reference_rewrites(umbrellas, inputs, archived))


File = TypeVar("File")


def moved_entries(entries: Mapping[str, File], moves: Sequence[tuple[str, str]]) -> dict[str, File]:
    """The files of a tree after moving folders (from, to) whole: the tree the archive commit
    leaves, without writing it."""
    targets = dict(moves)
    if not targets:
        return dict(entries)
    moved = {}
    for path, entry in entries.items():
        folder = posixpath.dirname(path)
        while folder and folder not in targets:
            folder = posixpath.dirname(folder)
        moved[targets[folder] + path[len(folder) :] if folder else path] = entry
    return moved

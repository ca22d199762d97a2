"""The plan of `gitcurator update` (pure): for each followed skill, what its folder becomes,
and how the run's commits are grouped (one per source).

Every decision is here, before anything is written: a skill whose source cannot be read, that
is no longer live here or that the source removed is reported and left alone; one the source
did not change is left alone; the others are merged three-way (`folder_merge`). Any conflict
anywhere sends the whole run to a review branch; otherwise each source becomes one commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gitcurator.upstream.folder_merge import Conflict, FileEntry, merge_folder

Files = Mapping[str, FileEntry]

# What happens to one skill.
MERGED = "merged"  # taken: the folder becomes the merge (clean)
CONFLICT = "conflict"  # merged with conflict markers: goes to the review branch
UNCHANGED = "unchanged"  # the source did not change it
REMOVED = "removed-upstream"  # the source no longer has it: kept here, reported
NOT_LIVE = "not-live"  # archived or gone here: left alone
UNREACHABLE = "unreachable"  # its source could not be read
TAKEN = (MERGED, CONFLICT)


@dataclass(frozen=True, slots=True)
class SkillVersions:
    """One followed skill's three versions, as the load step found them."""

    name: str
    folder: str | None  # the library's folder (None: not live)
    url: str
    ref: str | None
    shown: str
    path: str  # its folder in the source
    old_commit: str
    new_commit: str | None
    base: Files | None  # None: the recorded commit is not available (merged as if added twice)
    ours: Files | None
    theirs: Files | None
    error: str | None = None
    # The source's folder is the same at both commits (the shell compared tree ids and read
    # no files): nothing to merge.
    unchanged: bool = False


@dataclass(frozen=True, slots=True)
class SkillStep:
    """What the update does to one skill: `kind`, and for merged ones the folder's new files
    and the conflicts left in them."""

    name: str
    kind: str
    folder: str | None
    versions: SkillVersions
    files: Files | None = None
    conflicts: tuple[Conflict, ...] = ()
    changed_here: bool = False  # ours differed from base (a local edit was kept)


@dataclass(frozen=True, slots=True)
class SourceStep:
    """The skills of one source (url, ref): one commit when any of them is taken."""

    url: str
    ref: str | None
    shown: str
    new_commit: str | None
    skills: tuple[SkillStep, ...]

    @property
    def taken(self) -> list[SkillStep]:
        """The skills this source's commit changes."""
        return [s for s in self.skills if s.kind in TAKEN]

    @property
    def old_commits(self) -> list[str]:
        """The recorded commits the taken skills came from (usually one)."""
        return sorted({s.versions.old_commit for s in self.taken})


@dataclass(frozen=True, slots=True)
class UpdatePlan:
    """Every source's step; `conflicts` decides where the commits go."""

    sources: tuple[SourceStep, ...]
    skipped_notes: tuple[str, ...] = field(default=())

    @property
    def steps(self) -> list[SkillStep]:
        """Every skill's step, by source."""
        return [s for source in self.sources for s in source.skills]

    @property
    def conflicted(self) -> list[SkillStep]:
        """The skills merged with conflicts."""
        return [s for s in self.steps if s.kind == CONFLICT]

    @property
    def taken(self) -> list[SkillStep]:
        """The skills the run changes."""
        return [s for s in self.steps if s.kind in TAKEN]


def plan_update(skills: Sequence[SkillVersions]) -> UpdatePlan:
    """Each skill's step, grouped by source in the order first seen."""
    grouped: dict[tuple[str, str | None], list[SkillStep]] = {}
    first: dict[tuple[str, str | None], SkillVersions] = {}
    for v in skills:
        key = (v.url, v.ref)
        first.setdefault(key, v)
        grouped.setdefault(key, []).append(plan_skill(v))
    return UpdatePlan(
        tuple(
            SourceStep(url, ref, first[(url, ref)].shown, first[(url, ref)].new_commit, tuple(st))
            for (url, ref), st in grouped.items()
        )
    )


def plan_skill(v: SkillVersions) -> SkillStep:
    """What the update does to one skill."""
    if v.error is not None or v.new_commit is None:
        return SkillStep(v.name, UNREACHABLE, v.folder, v)
    if v.ours is None or v.folder is None:
        return SkillStep(v.name, NOT_LIVE, v.folder, v)
    if v.theirs is None:
        return SkillStep(v.name, REMOVED, v.folder, v)
    base = v.base if v.base is not None else {}
    if v.unchanged or (v.base is not None and dict(v.theirs) == dict(v.base)):
        return SkillStep(v.name, UNCHANGED, v.folder, v)
    if dict(v.theirs) == dict(v.ours):
        # Already as upstream has it (taken by hand, or the same edit made here).
        return SkillStep(v.name, MERGED, v.folder, v, dict(v.ours))
    merged = merge_folder(base, v.ours, v.theirs)
    changed_here = v.base is None or dict(v.ours) != dict(v.base)
    kind = MERGED if not merged.conflicts else CONFLICT
    return SkillStep(
        v.name, kind, v.folder, v, dict(merged.files), tuple(merged.conflicts), changed_here
    )


def update_subject(source: SourceStep) -> str:
    """`update: 3 skills from anthropics/skills (abc1234 → def5678)`."""
    taken = source.taken
    olds = source.old_commits
    old = olds[0][:7] if len(olds) == 1 else f"{len(olds)} commits"
    noun = "skill" if len(taken) == 1 else "skills"
    return (
        f"update: {len(taken)} {noun} from {source.shown} ({old} → {(source.new_commit or '')[:7]})"
    )

"""The load step of a pass: everything it decides from, read once (reads only).

The default branch's tip and files, every skill's row (state, provenance, usage), the states
the previous pass recorded, and the run id free for this pass. Nothing is written: the
apply step folds the journal into the notes, and until then `ledger.load` reads its events
beside the notes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from gitcurator.audit.passes import BRANCH_PREFIX
from gitcurator.config import Config
from gitcurator.curation import pass_records, rows_cache
from gitcurator.curation.catalogue_cache import described_blobs, skill_md_blobs
from gitcurator.curation.locations_cache import tree_locations
from gitcurator.curation.pass_records import PassRecords
from gitcurator.curation.reads_beside import CatalogueBeside, ScanBeside, joined_candidates
from gitcurator.curation.reference_cache import tree_references

# skill_rows_at moved to curation.skill_rows; branch_verify still imports it from here
from gitcurator.curation.skill_rows import skill_rows_at as skill_rows_at
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.catalogue_cost import Described
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.progress import NO_PROGRESS, Progress
from gitcurator.references.graph import ReferenceGraph
from gitcurator.skills.document import SkillLocation
from gitcurator.store import ObjectID, Store, branches, commits
from gitcurator.telemetry import ledger


@dataclass(frozen=True, slots=True)
class PassInputs:
    """What a pass at `now` plans from."""

    now: datetime
    config: Config
    run_id: str
    base_branch: str
    tip: ObjectID  # the default branch's commit the pass starts from
    tree: ObjectID
    entries: Mapping[str, tuple[ObjectID, int]]  # path -> (blob, mode) of every file at tip
    rows: tuple[SkillRow, ...]  # every skill, live and archived, sorted by name
    recorded: Mapping[str, str]  # skill -> the lifecycle state the previous pass left it in
    read: Callable[[ObjectID], bytes]  # loads a blob: the umbrella checks read skills' files
    problems: tuple[str, ...] = ()  # records that could not be read, in words
    # SKILL.md blob -> its name and description, for the live skills at tip (the catalogue)
    described: Mapping[ObjectID, Described] = field(default_factory=dict)
    references: ReferenceGraph = field(default_factory=ReferenceGraph)  # who refers to what
    aliases: Mapping[str, str] = field(default_factory=dict)  # absorbed name -> umbrella
    # find_skills(entries) as load found them, so the later steps need not walk them again
    locations: tuple[SkillLocation, ...] = ()


def load_pass(repo: SkillsRepo, now: datetime, progress: Progress = NO_PROGRESS) -> PassInputs:
    """Read what a pass at `now` needs from the default branch and the usage records
    (`progress` hears how the skill catalogue is read)."""
    store, config = repo.store, repo.config
    branch = store.default_branch()
    tip = store.branch_tip(branch)
    if tip is None:
        raise CuratorError(f"branch {branch} has no commits yet; run `gitcurator init` first")
    tree = commits.commit_tree_of(store, tip)
    entries = store.tree_entries(tree)
    locations = tree_locations(store, tree, entries, config.skills_dir, config.include)
    catalogue = skill_md_blobs(entries, config, locations)
    # Without caches (a fresh clone) the scan's reading of every file and the catalogue's
    # parsing of every SKILL.md run in children beside the records' load.
    # The scan, the longest of the three, in two halves: on two cores the four processes
    # then end together, where one scan child ran on alone after the rest.
    with (
        ScanBeside(store, config, entries, locations, (0, 2)) as first,
        ScanBeside(store, config, entries, locations, (1, 2)) as second,
        CatalogueBeside(store, catalogue) as beside,
    ):
        rows, facts = _rows_at_tip(repo, tip, entries, locations, now)
        described = beside.described()  # done meanwhile, by the time the rows are
        seeded = joined_candidates(first, second)
    aliases = dict(facts.aliases)
    # Else the scan reads every SKILL.md the catalogue reads after it (when neither is
    # cached): each is loaded once for both.
    read = store.read_blob if described else _reading_once(store.read_blob, set(catalogue))
    references = tree_references(store, config, entries, locations, aliases, read, tree, seeded)
    if described is None:
        described = described_blobs(store, catalogue, progress, read)
    return PassInputs(
        now=now,
        config=config,
        run_id=free_run_id(store, now),
        base_branch=branch,
        tip=tip,
        tree=tree,
        entries=entries,
        rows=tuple(rows),
        recorded=facts.recorded,
        read=store.read_blob,
        problems=facts.problems,
        described=described,
        references=references,
        aliases=aliases,
        locations=tuple(locations),
    )


def _rows_at_tip(
    repo: SkillsRepo,
    tip: ObjectID,
    entries: Mapping[str, tuple[ObjectID, int]],
    locations: list[SkillLocation],
    now: datetime,
) -> tuple[list[SkillRow], PassRecords]:
    """Every skill's row at `tip` (whose files are `entries`, its skills `locations`) and the
    records' facts: the rows from the rows cache `list` and `status` keep, when what they
    are computed from did not move, and the facts kept beside them (curation/pass_records).
    A pass keeps no rows itself: it writes the notes next, so they would be out of date at
    once."""
    key = rows_cache.rows_key(repo, tip)
    latest = rows_cache.reader_latest()
    facts = pass_records.read_kept(repo, key, latest)
    if facts is not None:
        kept = rows_cache.read_rows_only(repo, key, latest, now)
        if kept is not None:
            return kept.rows, facts
    loaded = ledger.load(repo.store)
    facts = pass_records.from_loaded(loaded)
    # The kept rows hold the records just loaded only if nothing moved while they loaded.
    if rows_cache.rows_key(repo, tip) == key:
        pass_records.keep(repo, key, latest, facts)
        kept = rows_cache.read_rows_only(repo, key, latest, now)
        if kept is not None:
            return kept.rows, facts
    rows = skill_rows_at(repo, entries, loaded.records, now, head=tip, locations=locations)
    return rows, facts


def _reading_once(
    read: Callable[[ObjectID], bytes], kept: set[ObjectID]
) -> Callable[[ObjectID], bytes]:
    """`read`, with the blobs among `kept` held after their first read and handed out at
    their second (then let go: a blob is asked for at most twice)."""
    held: dict[ObjectID, bytes] = {}

    def read_once(blob: ObjectID) -> bytes:
        data = held.pop(blob, None)
        if data is None:
            data = read(blob)
            if blob in kept:
                held[blob] = data
        return data

    return read_once


def free_run_id(store: Store, now: datetime) -> str:
    """`YYYYMMDD-HHMMSS` of `now`, suffixed -2, -3, ... while a curator branch has it (or its
    ref's lock exists: a pass killed while it created the branch leaves one)."""
    base = now.strftime("%Y%m%d-%H%M%S")
    taken = branches.taken_names(store, BRANCH_PREFIX)
    run_id, n = base, 1
    while BRANCH_PREFIX + run_id in taken or branches.branch_locked(store, BRANCH_PREFIX + run_id):
        n += 1
        run_id = f"{base}-{n}"
    return run_id

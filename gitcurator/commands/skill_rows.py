"""The rows the reading commands start from: every committed skill with its record and history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from gitcurator import forked
from gitcurator.curation import rows_cache
from gitcurator.curation.skill_rows import skill_rows_at
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.output import warning_line
from gitcurator.skills.document import discover_skills
from gitcurator.store import Store
from gitcurator.telemetry import ledger, notes_records
from gitcurator.telemetry.records import UsageRecord
from gitcurator.timeutil import moment_of


@dataclass(frozen=True, slots=True)
class LoadedRows:
    rows: list[SkillRow]
    problems: list[str]  # records that could not be read, each worth a warning
    now: datetime
    records: Mapping[str, UsageRecord] = field(default_factory=dict)  # what the rows joined
    hidden: tuple[str, ...] = ()  # SKILL.md files left out under dot-folders (not skills)
    links: tuple[str, ...] = ()  # HEAD's submodule links (nested repositories list warns of)
    # Each row's JSON text split around its state, when the rows cache kept them
    texts: tuple[tuple[str, str], ...] | None = None
    # The rows key the rows hold for (read from the cache under it, or kept under it) and
    # the newest pending event they counted; None when they were not kept
    key: rows_cache.RowsKey | None = None
    newest: str = ""
    anchors: tuple[int | None, ...] = ()  # each row's idle_anchor, when kept

    @property
    def warnings(self) -> tuple[str, ...]:
        """The problems as the notes a command shows."""
        return tuple(warning_line(p) for p in self.problems)


def load_rows(repo: SkillsRepo, now: str | None) -> LoadedRows:
    """Every committed skill (live and archived) joined with its record and its history."""
    moment = moment_of(now)
    # Without the records cache the notes' records (0.3 s at 10,000) load in a child beside
    # HEAD's walk; the child leaves them in the cache, where ledger.load then finds them.
    uncached = big_library(repo) and not notes_records.cached(repo.store)
    with forked.Beside(lambda: _cached_notes(repo.store), uncached) as beside:
        entries = repo.store.head_entries()
        # One walk gives the skills and the files left out (list warns about those).
        found, hidden = discover_skills(entries, repo.config.skills_dir, repo.config.include)
        beside.result()
    loaded = ledger.load(repo.store)
    rows = skill_rows_at(repo, entries, loaded.records, moment, locations=found)
    links = rows_cache.links_of(entries)
    return LoadedRows(rows, loaded.problems, moment, loaded.records, tuple(hidden), links)


def _cached_notes(store: Store) -> bytes:
    notes_records.load_notes(store)
    return b""


# An index this big (about 5,000 files) makes a walk or a load worth a forked child.
_BIG_INDEX = 400_000


def big_library(repo: SkillsRepo) -> bool:
    """Whether the library is big enough for work beside the caller's (the index's size)."""
    try:
        return Path(repo.store.repo.index_path()).stat().st_size > _BIG_INDEX
    except OSError:
        return False


def load_kept_rows(repo: SkillsRepo, now: str | None) -> LoadedRows:
    """load_rows without the records (`records` is empty), from the rows cache when nothing
    they are computed from moved: what `list` and `status` show."""
    moment = moment_of(now)
    key = rows_cache.rows_key(repo)
    # The rows hold only events up to the time a reader takes: one later is left out.
    latest = rows_cache.reader_latest()
    kept = rows_cache.read_rows(repo, key, latest, moment)
    if kept is None:
        loaded = load_rows(repo, now)
        built = rows_cache.CachedRows(loaded.rows, loaded.problems, loaded.hidden, loaded.links)
        kept = rows_cache.keep(repo, key, latest, built)
        if kept is None:
            return replace(loaded, now=moment, records={})
    return LoadedRows(
        kept.rows, kept.problems, moment, {}, kept.hidden, kept.links, kept.texts, key,
        kept.newest, kept.anchors,
    )  # fmt: skip

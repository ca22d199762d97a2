"""A cold pass's slow reads (no caches: a fresh clone) done in forked children beside its
records' load: the reference scan's reading of every file, and the catalogue's parsing of
every SKILL.md. Each child opens the repository anew (Store.reopened) and hands back what
the pass would have found itself; a child that fails costs only its head start."""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gitcurator import forked
from gitcurator.config import Config
from gitcurator.curation.catalogue_cache import described_blobs
from gitcurator.lifecycle.catalogue_cost import Described
from gitcurator.skills.document import SkillLocation
from gitcurator.statefiles import CATALOGUE_CACHE, REFERENCES_CACHE
from gitcurator.store import ObjectID, Store

if TYPE_CHECKING:
    from gitcurator.references.scan import CandidateCache

Entries = Mapping[str, tuple[ObjectID, int]]
Located = list[SkillLocation]
_BESIDE_ABOVE = 5000  # files or skills: below this a child's start costs more than it saves


class ScanBeside(forked.Beside):
    """The scan's reading of every file (1.3 s of a cold pass at 10,000 skills), or a share
    of them, done in a child beside the caller's load, when no cache of candidates is kept
    yet and the tree is big: the candidates are the same whatever the absorbed names, which
    the caller learns only from the records it loads meanwhile."""

    def __init__(
        self,
        store: Store,
        config: Config,
        entries: Entries,
        locations: Located,
        share: tuple[int, int] = (0, 1),
    ) -> None:
        # share (k, n): every n-th file from the k-th. A file's candidates depend on it
        # alone, so the shares of n children join into the whole scan's.
        def scanned() -> bytes:
            from gitcurator.references.scan import scan_entries

            k, n = share
            mine = {p: e for i, (p, e) in enumerate(entries.items()) if i % n == k}
            with store.reopened() as own:
                _, fresh = scan_entries(mine, own.read_blob, locations, config.reference_files)
            return pickle.dumps(fresh, pickle.HIGHEST_PROTOCOL)

        cold = not (store.state_dir() / REFERENCES_CACHE).exists()
        super().__init__(scanned, cold and len(entries) > _BESIDE_ABOVE)

    def candidates(self) -> CandidateCache | None:
        """The child's candidates by blob id (None when none ran or it failed)."""
        data = self.result()
        return None if data is None else pickle.loads(data)  # our own fork's, over a pipe


def joined_candidates(*scans: ScanBeside) -> CandidateCache | None:
    """The candidates the shares' children found, together (None when none did: a share
    whose child failed is read by the caller, as any file not among them is)."""
    found = [c for c in (scan.candidates() for scan in scans) if c is not None]
    return {k: v for c in found for k, v in c.items()} if found else None


class CatalogueBeside(forked.Beside):
    """described_blobs of `blobs` (0.6-0.9 s at 10,000 skills) run in a child beside the
    caller's load, when no catalogue is cached yet and there are many (the child keeps the
    cache, as described_blobs does here)."""

    def __init__(self, store: Store, blobs: Sequence[ObjectID]) -> None:
        def described_there() -> bytes:
            with store.reopened() as own:
                return pickle.dumps(described_blobs(own, blobs), pickle.HIGHEST_PROTOCOL)

        cold = not (store.state_dir() / CATALOGUE_CACHE).exists()
        super().__init__(described_there, cold and len(blobs) > _BESIDE_ABOVE)

    def described(self) -> dict[ObjectID, Described] | None:
        """The child's entries (None when none ran or it failed)."""
        data = self.result()
        return None if data is None else pickle.loads(data)  # our own fork's, over a pipe

"""The reference graph of a stored tree, with the scan's candidates cached by blob id in
`.git/gitcurator/` (content-addressed: a changed file is a new blob, so nothing goes stale;
a dry run writes no cache, see statefiles.read_only)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from gitcurator.config import Config
from gitcurator.references.graph import ReferenceGraph
from gitcurator.references.scan import Candidate, scan_entries
from gitcurator.skills.document import SkillLocation
from gitcurator.statefiles import REFERENCES_CACHE, write_cache
from gitcurator.store import ObjectID, Store
from gitcurator.telemetry import ledger

_VERSION = 4  # raised whenever what a candidate is changes


def tree_references(
    store: Store,
    config: Config,
    entries: Mapping[str, tuple[ObjectID, int]],
    locations: list[SkillLocation],
    aliases: Mapping[str, str],
) -> ReferenceGraph:
    """Who refers to which skill in the tree of `entries` (read through the cache)."""
    path = ledger.state_of(store) / REFERENCES_CACHE
    cache = _entries(path)
    globs = config.reference_files
    try:
        graph, fresh = scan_entries(entries, store.read_blob, locations, globs, aliases, cache)
    except (TypeError, ValueError, AttributeError):
        if not cache:
            raise
        # A cache whose digest matches but whose entries are no candidates (edited by hand, or
        # by a tool that recomputed the digest): read every file again, as without one, and
        # write the cache anew.
        cache = {}
        graph, fresh = scan_entries(entries, store.read_blob, locations, globs, aliases)
    # Content-addressed: the same blobs are the same entries, so the keys say it all.
    if fresh.keys() != cache.keys():
        write_cache(path, _document(fresh))
    return graph


def _entries(path: Path) -> dict[str, list[Candidate] | str]:
    """The cache's entries, or none when it is missing or damaged. The file is a header line
    (version, digest) and the entries' JSON, so an edited or truncated cache is noticed at
    the cost of one hash (checking each candidate's shape would cost more than the scan
    saves) and parsed once."""
    try:
        header, _, text = path.read_text(encoding="utf-8").partition("\n")
        head = json.loads(header)
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(head, dict) or head.get("version") != _VERSION:
        return {}
    if hashlib.sha1(text.encode()).hexdigest() != head.get("sha1"):
        return {}
    try:
        files = json.loads(text)
    except ValueError:
        return {}
    return files if isinstance(files, dict) else {}


def _document(files: Mapping[str, list[Candidate] | str]) -> str:
    text = json.dumps(files, separators=(",", ":"), ensure_ascii=False)
    header = json.dumps({"version": _VERSION, "sha1": hashlib.sha1(text.encode()).hexdigest()})
    return f"{header}\n{text}"

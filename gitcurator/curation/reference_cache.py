"""The reference graph of a stored tree, with the scan's candidates cached by blob id in
`.git/gitcurator/` (content-addressed: a changed file is a new blob, so nothing goes stale;
a dry run writes no cache, see statefiles.read_only)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from gitcurator.config import Config
from gitcurator.references.graph import ReferenceGraph
from gitcurator.references.scan import Candidate, scan_entries
from gitcurator.skills.document import SkillLocation
from gitcurator.statefiles import REFERENCES_CACHE, read_json, write_cache_json
from gitcurator.store import ObjectID, Store
from gitcurator.telemetry import ledger

_VERSION = 1  # raised whenever what a candidate is changes


def tree_references(
    store: Store,
    config: Config,
    entries: Mapping[str, tuple[ObjectID, int]],
    locations: list[SkillLocation],
    aliases: Mapping[str, str],
) -> ReferenceGraph:
    """Who refers to which skill in the tree of `entries` (read through the cache)."""
    path = ledger.state_of(store) / REFERENCES_CACHE
    cache = _entries(read_json(path))
    graph, fresh = scan_entries(
        entries, store.read_blob, locations, config.reference_files, aliases, cache
    )
    if fresh != cache:
        write_cache_json(path, _document(fresh))
    return graph


def _entries(doc: Any) -> dict[str, list[Candidate] | str]:
    """The cache's entries, or none when it is damaged: the entries are kept as one JSON
    text with its digest, so an edited or truncated cache is noticed at the cost of one
    hash (checking each candidate's shape would cost more than the scan saves)."""
    if not isinstance(doc, dict) or doc.get("version") != _VERSION:
        return {}
    text, digest = doc.get("files"), doc.get("sha1")
    if not isinstance(text, str) or hashlib.sha1(text.encode()).hexdigest() != digest:
        return {}
    files = json.loads(text)
    return files if isinstance(files, dict) else {}


def _document(files: Mapping[str, list[Candidate] | str]) -> dict[str, Any]:
    text = json.dumps(files, separators=(",", ":"), ensure_ascii=False)
    return {"version": _VERSION, "sha1": hashlib.sha1(text.encode()).hexdigest(), "files": text}

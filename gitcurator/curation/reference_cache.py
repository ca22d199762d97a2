"""The reference graph of a stored tree, with the scan's candidates cached by blob id in
`.git/gitcurator/` (content-addressed: a changed file is a new blob, so nothing goes stale;
a dry run writes no cache, see statefiles.read_only).

Beside the candidates the cache keeps the last graph built from them, under the digest of
everything that graph is a function of (every entry's path, blob and mode, the skills'
locations, the `reference_files:` globs, the absorbed names): a pass over an unchanged tree
then neither lists the sources nor resolves 20,000 files' candidates again (half a second
at 10,000 skills)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator.config import Config
from gitcurator.references.graph import Reference, ReferenceGraph
from gitcurator.render import utf8_text
from gitcurator.skills.document import SkillLocation
from gitcurator.statefiles import REFERENCES_CACHE, is_read_only, read_regular, write_cache
from gitcurator.store import ObjectID, Store

if TYPE_CHECKING:
    # The scan (its patterns compiled at import) loads only when the kept graph does not fit.
    from gitcurator.references.scan import Candidate, CandidateCache

_VERSION = 4  # raised whenever what a candidate is changes
_GRAPH_VERSION = 1  # raised whenever how candidates become references changes
_GRAPH = "graph"  # the key of the graph in the entries' document: never a blob id
Entries = dict[str, "list[Candidate] | str"]


def tree_references(
    store: Store,
    config: Config,
    entries: Mapping[str, tuple[ObjectID, int]],
    locations: list[SkillLocation],
    aliases: Mapping[str, str],
    read: Callable[[ObjectID], bytes] | None = None,
    tree: ObjectID | None = None,
    seeded: CandidateCache | None = None,
) -> ReferenceGraph:
    """Who refers to which skill in the tree of `entries` (read through the cache; `read`
    loads a blob, by default store.read_blob). `tree`, when the caller has it, is the id of
    the stored tree whose files `entries` are: the graph is then kept under it. `seeded`:
    candidates by blob id found already (ScanBeside's), taken as the cache's are."""
    read = read or store.read_blob
    path = store.state_dir() / REFERENCES_CACHE
    globs = config.reference_files
    key = graph_key(entries, locations, globs, aliases, tree)
    text = _checked_body(path)
    graph = None if text is None else _graph(_stored_graph(text), key)
    if graph is not None:
        return graph
    cache, _ = _entries(text)
    if seeded:
        cache = {**cache, **seeded}
    from gitcurator.references.scan import scan_entries

    try:
        graph, fresh = scan_entries(entries, read, locations, globs, aliases, cache)
    except (TypeError, ValueError, AttributeError):
        if not cache:
            raise
        # A cache whose digest matches but whose entries are no candidates (edited by hand, or
        # by a tool that recomputed the digest): read every file again, as without one, and
        # write the cache anew.
        cache = {}
        graph, fresh = scan_entries(entries, read, locations, globs, aliases)
    if not is_read_only():  # a dry run writes nothing: its text need not be built either
        write_cache(path, _document(fresh, key, graph))
    return graph


def graph_key(
    entries: Mapping[str, tuple[ObjectID, int]],
    locations: Sequence[SkillLocation],
    globs: Sequence[str],
    aliases: Mapping[str, str],
    tree: ObjectID | None = None,
) -> str:
    """The digest of everything the graph of a tree is made from (the candidates are a
    function of the blobs, so of `entries`; `entries` are a function of `tree`, whose id
    stands for them when given: 20,000 lines less to format at 10,000 skills)."""
    digest = hashlib.sha1(f"{_VERSION}.{_GRAPH_VERSION}\n".encode())
    if tree is not None:
        lines = [f"tree {tree.decode()}\n"]  # no entry makes this line: each of theirs has a NUL
    else:
        lines = [f"{p}\0{blob.decode()}\0{mode:o}\n" for p, (blob, mode) in entries.items()]
        lines.sort()
    lines += [f"{x.folder}\0{x.skill_md}\0{x.archived}\0{x.skills_dir}\n" for x in locations]
    digest.update("".join(lines).encode("utf-8", "surrogateescape"))
    digest.update(json.dumps([list(globs), sorted(aliases.items())]).encode())
    return digest.hexdigest()


def _checked_body(path: Path) -> str | None:
    """The entries' JSON of the cache, None when the file is missing or damaged. The file is
    a header line (version, digest) and that JSON, so an edited or truncated cache is
    noticed at the cost of one hash (checking each candidate's shape would cost more than
    the scan saves)."""
    text = _read_text(path)
    if text is None:
        return None
    header, _, body = text.partition("\n")
    try:
        head = json.loads(header)
    except ValueError:
        return None
    if not isinstance(head, dict) or head.get("version") != _VERSION:
        return None
    return body if _sha1(body) == head.get("sha1") else None


def _stored_graph(body: str) -> object:
    """The graph kept in the checked `body`, read without parsing the candidates before it:
    _document writes it as the object's last key, and a key's quotes cannot stand unescaped
    inside a string, so the last `"graph":{"key":` at the top level is found from the end."""
    marker = '"' + _GRAPH + '":{"key":'
    at = body.rfind(marker)
    if at <= 0 or body[at - 1] not in "{,":
        return None
    start = at + len(marker) - len('{"key":')
    try:
        graph, end = json.JSONDecoder().raw_decode(body, start)
    except (ValueError, RecursionError):
        return None
    return graph if body[end:] == "}" else None


def _entries(body: str | None) -> tuple[Entries, object]:
    """The cache's entries and the graph stored beside them, from its checked `body`; none
    when there is none or it is damaged."""
    if body is None:
        return {}, None
    try:
        files = json.loads(body)
    except (ValueError, RecursionError):
        return {}, None
    if not isinstance(files, dict):
        return {}, None
    return files, files.pop(_GRAPH, None)


def _read_text(path: Path) -> str | None:
    data = read_regular(path)  # a regular file only: a FIFO must not hang the pass
    try:
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _graph(stored: object, key: str) -> ReferenceGraph | None:
    """The stored graph if it was made from exactly this tree, and is whole (anything else
    is ignored: the scan runs as without it)."""
    if not isinstance(stored, dict) or stored.get("key") != key:
        return None
    refs, notes = stored.get("references"), stored.get("notes")
    if not isinstance(refs, list) or not isinstance(notes, list):
        return None
    if not all(isinstance(n, str) for n in notes):
        return None
    found = []
    for ref in refs:
        if not (isinstance(ref, list) and len(ref) == 8 and _reference_shape(ref)):
            return None
        found.append(Reference(*ref))
    return ReferenceGraph(tuple(found), tuple(notes))


def _reference_shape(ref: list[object]) -> bool:
    source, from_skill, live, target, kind, path, line, text = ref
    return (
        all(isinstance(v, str) for v in (source, target, kind, path, text))
        and isinstance(from_skill, bool)
        and isinstance(live, bool)
        and isinstance(line, int)
        and not isinstance(line, bool)
    )


def _sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()


def _document(files: Mapping[str, list[Candidate] | str], key: str, graph: ReferenceGraph) -> str:
    refs = [
        [r.source, r.from_skill, r.live, r.target, r.kind, r.path, r.line, r.text]
        for r in graph.references
    ]
    # The graph is one more key of the entries' object, so the header's digest covers both.
    stored = {"key": key, "references": refs, "notes": list(graph.notes)}
    doc = {**files, _GRAPH: stored}
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    if not utf8_text(text):  # a name git stores as bytes that are not UTF-8: JSON's escape
        text = json.dumps(doc, separators=(",", ":"))
    header = json.dumps({"version": _VERSION, "sha1": _sha1(text)})
    return f"{header}\n{text}"

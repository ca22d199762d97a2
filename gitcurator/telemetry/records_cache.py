"""The records cache (.git/gitcurator/records-cache.json), keyed by notes commit: its one
layout, read whole (`read_whole`, every reading command) or by the records a flush touches
(`read_subset`), and moved to the flush's notes commit (`write_moved`).

A flush of 2,000 events into 10,000 records decoded and re-encoded all 10,000 (the cache is
keyed by notes commit, and every flush makes a new one). Only the records the events name are
decoded for a flush; after the notes commit, the cache is moved to it with just the touched
records replaced. The document holds `notes`, `records`, `problems` and `unreadable`; one of
any other shape is not used.

Each record is kept in the document as its compact JSON text (`cache_text`), not as nested
JSON: reading and writing 10,000 strings costs the C scanner ~10 ms each way, 10,000 nested
objects ~45 ms, in every flush. The document is written one record a line (`document`), so a
flush splits it into lines instead of parsing all of it, and writes the untouched lines back as
they were. The first line carries the SHA-1 of all that follows it: a cache edited by hand
(a count changed, under the same notes commit) was trusted, and the next flush wrote the edit
into the notes. A document laid out otherwise, damaged or edited is not used (the notes are
read instead), and rewritten.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]  # (not in typeshed)
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any

from gitcurator.statefiles import is_read_only, read_regular, write_cache
from gitcurator.telemetry.records import UsageRecord, from_doc, to_doc

_FIELDS = {"notes", "sha1", "records", "problems", "unreadable"}
# The first line ends where the records begin; then each record is a line `"name":"text",`
# (the last one closing the document with `}}`).
_HEAD_END = ',"records":{'
# json.dumps(doc, separators=...) makes an encoder on every call: this one is made once.
_COMPACT = json.JSONEncoder(separators=(",", ":")).encode
_DECODER = json.JSONDecoder()
_CACHE_ERRORS = (KeyError, TypeError, ValueError, AttributeError, RecursionError)


@dataclass(slots=True)
class Subset:
    """Some records of one notes commit, with every problem and unreadable note of it."""

    records: dict[str, UsageRecord]
    problems: list[str]
    unreadable: dict[str, str]
    items: dict[str, str]  # every record of the cache as its line: `"name":"text"` (JSON)


def cache_text(record: UsageRecord) -> str:
    """A record as the cache keeps it: its document's compact JSON (ASCII, as the cache is)."""
    return doc_text(to_doc(record))


def doc_text(doc: dict[str, Any]) -> str:
    """A record's document (records.to_doc) as the cache keeps it."""
    return _COMPACT(doc)


def from_cache_text(text: object) -> UsageRecord:
    """A record from its text in the cache (TypeError, ValueError...: a damaged cache)."""
    if type(text) is not str:
        raise TypeError("a cached record is its JSON text")
    # The decoder itself, not json.loads (its checks cost as much as a record's parse): the
    # text is the compact JSON cache_text writes, so it must end where its document does.
    doc, end = _DECODER.raw_decode(text)
    if end != len(text):
        raise ValueError("a cached record's text goes on past its document")
    return from_doc(doc)


def document(
    notes: str | None, texts: dict[str, str], problems: list[str], unreadable: dict[str, str]
) -> str:
    """The cache's text for notes commit `notes`: JSON (ASCII), one record a line."""
    # json's C encoder writes each `"name":"text"` line as _item does, 10,000 in one call.
    lines = json.dumps(texts, separators=(",\n", ":"))[1:-1]
    return _laid_out(notes, problems, unreadable, lines)


def _laid_out(
    notes: str | None, problems: list[str], unreadable: dict[str, str], lines: str
) -> str:
    """The document around its record lines (`"name":"text"`, joined by `,\n`), the digest
    of all after it in its first line."""
    rest = _rest_of_head(problems, unreadable) + "\n" + lines + "}}\n"
    return f'{_opening(notes)}"sha1":"{_sha1(rest)}",{rest}'


def write_whole(
    path: Path,
    notes: str | None,
    records: dict[str, UsageRecord],
    problems: list[str],
    unreadable: dict[str, str],
    known: dict[str, str] | None = None,
) -> None:
    """Keep every record of notes commit `notes` (`known`: records' cache texts already
    made), one a line, so the next flush reads and moves the cache by line."""
    if is_read_only():  # a dry run: 10,000 records are not encoded to be thrown away
        return
    known = known or {}
    texts = {n: known.get(n) or cache_text(r) for n, r in records.items()}
    write_cache(path, document(notes, texts, problems, unreadable))


def _opening(notes: str | None) -> str:
    return f'{{"notes":{json.dumps(notes)},'


def _rest_of_head(problems: list[str], unreadable: dict[str, str]) -> str:
    head = json.dumps({"problems": problems, "unreadable": unreadable}, separators=(",", ":"))
    return head[1:-1] + _HEAD_END


def _sha1(text: str) -> str:
    # The document is ASCII (json's escapes): a text that is not is no cache of ours.
    return hashlib.sha1(text.encode("ascii")).hexdigest()


def _verified(text: str, notes: str | None) -> bool:
    """Whether `text` is a cache for notes commit `notes` whose digest holds for all after it."""
    opening = _opening(notes) + '"sha1":"'
    start = len(opening) + 42  # past the digest's 40 digits, its quote and comma
    if not text.startswith(opening) or text[start - 2 : start] != '",':
        return False
    try:
        return _sha1(text[start:]) == text[len(opening) : start - 2]
    except UnicodeEncodeError:
        return False


def read_subset(path: Path, notes: str | None, names: Iterable[str]) -> Subset | None:
    """The records named (those that exist) from the cache at `path`, if it is for notes
    commit `notes` and well formed; else None (the caller loads every record)."""
    data = read_regular(path)
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    split = _lines(text) if _verified(text, notes) else None
    if split is None:
        return None
    head, items = split
    problems, unreadable = head["problems"], head["unreadable"]
    if head["notes"] != notes or not _well_formed(problems, unreadable):
        return None
    try:
        subset = {n: _from_item(n, items[n]) for n in set(names) if n in items}
    except _CACHE_ERRORS:
        return None
    return Subset(subset, list(problems), dict(unreadable), items)


def _from_item(name: str, item: str) -> UsageRecord:
    """The record on a cache's line (ValueError...: not a whole line for `name`)."""
    opening = encode_basestring_ascii(name) + ':"'  # `"name":"`, as json.dumps spells it
    start = len(opening)
    if not item.startswith(opening):
        raise ValueError(f"not the line of {name}")
    text, end = scanstring(item, start)  # the C scanner json.loads runs for a string
    if end != len(item):
        raise ValueError(f"the line of {name} goes on past its record")
    return cached_record(name, text)


def cached_record(name: str, text: object) -> UsageRecord:
    """A cached record of `name` (ValueError: a record filed under another skill)."""
    record = from_cache_text(text)
    if record.skill != name:
        raise ValueError(f"the cached record of {name} names {record.skill}")
    return record


def _lines(text: str) -> tuple[dict[str, Any], dict[str, str]] | None:
    """The head (every field but the records) and each record's line of a cache laid out as
    `document` writes it; None for any other text."""
    end = text.find("\n")
    if end < 0 or not text.startswith(_HEAD_END, end - len(_HEAD_END)) or text[-3:] != "}}\n":
        return None
    try:
        head = json.loads(text[:end] + "}}")
    except _CACHE_ERRORS:
        return None
    if not isinstance(head, dict) or set(head) != _FIELDS or head["records"] != {}:
        return None
    body = text[end + 1 : -3]
    items = body.split(",\n") if body else []
    if body.count("\n") != max(len(items) - 1, 0):
        return None  # a line not ending with a comma, or one missing
    if body and not _one_pair_a_line(body, len(items)):
        return None  # two records on a line, or one JSON reads otherwise
    # Each line's name, cut at its first `":"`: exact for a name JSON writes plainly (no
    # quote, no backslash); any other is read as JSON reads it, and refused unless spelled
    # as json.dumps spells it. A line whose record is used is checked in full when read.
    cut = [item[1 : item.find('":"')] for item in items]
    joined = "".join(cut)
    plain = '"' not in joined and "\\" not in joined
    names = cut if plain else _escaped_names(items)  # a name not ASCII: `caf\u00e9`
    return None if names is None else (head, dict(zip(names, items, strict=True)))


def _escaped_names(items: list[str]) -> list[str] | None:
    """Each line's name as JSON reads it (a name not ASCII is escaped); None if one is spelled
    otherwise than json.dumps spells it (two spellings of one name: JSON reads one line)."""
    names = []
    for item in items:
        try:
            name = scanstring(item, 1)[0]
        except ValueError:
            return None
        if not item.startswith(encode_basestring_ascii(name) + ':"'):
            return None
        names.append(name)
    return names if len(set(names)) == len(names) else None


def _one_pair_a_line(body: str, count: int) -> bool:
    """Whether each of `count` lines holds one name and one record, as JSON reads them too.

    Cutting at line ends must not hide a pair JSON sees (`"a":"…" , "b":"…"`, joined by hand):
    a record's text is a JSON object, so every line opens with a quote and closes with `}"`,
    and has 4 quotes not escaped (name and text, open and close). A pair hidden on a line
    brings at least one more that no backslash precedes; a quote preceded by an escaped
    backslash only counts as escaped, so the count says too few, never too many. Two records
    joined by `,` alone fail it too. ~3 ms at 10k (1.9 MB), on a loaded machine.
    """
    if body[0] != '"' or not body.endswith('}"') or body.count('}",\n"') != count - 1:
        return False
    return body.count('"') - body.count('\\"') == 4 * count


def holds(path: Path, notes: str | None) -> bool:
    """Whether the cache at `path` is for notes commit `notes` (as its first bytes say)."""
    opening = _opening(notes).encode()  # as the document begins
    return read_regular(path, len(opening)) == opening


def read_whole(
    path: Path, notes: str | None
) -> tuple[dict[str, UsageRecord], list[str], dict[str, str]] | None:
    """Every record, the problems and the unreadable notes of the cache at `path`, if it is
    for notes commit `notes`, well formed and its digest holding; else None."""
    data = read_regular(path)
    try:
        text = "" if data is None else data.decode("utf-8")
        whole = _whole_doc(text, notes) if _verified(text, notes) else None
        if whole is None:
            return None
        texts, problems, unreadable = whole
        return {n: cached_record(n, t) for n, t in texts.items()}, problems, unreadable
    except _CACHE_ERRORS:  # UnicodeDecodeError is a ValueError
        return None


def _whole_doc(
    text: str, notes: str | None
) -> tuple[dict[str, str], list[str], dict[str, str]] | None:
    """Each record's text, the problems and the unreadable notes of a cache parsed as one JSON
    document (its digest checked), if it is for notes commit `notes` and well formed."""
    try:
        doc = json.loads(text)
    except _CACHE_ERRORS:
        return None
    if not isinstance(doc, dict) or set(doc) != _FIELDS or doc["notes"] != notes:
        return None
    records, problems, unreadable = doc["records"], doc["problems"], doc["unreadable"]
    if not isinstance(records, dict) or not _well_formed(problems, unreadable):
        return None
    if not all(type(text) is str for text in records.values()):
        return None  # a cache of another version: every record is read from the notes
    return records, list(problems), dict(unreadable)


def _well_formed(problems: object, unreadable: object) -> bool:
    if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
        return False
    return isinstance(unreadable, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in unreadable.items()
    )


def _item(name: str, text: str) -> str:
    """A record's line in the cache (what json.dumps writes for that key and value)."""
    return encode_basestring_ascii(name) + ":" + encode_basestring_ascii(text)


def write_moved(
    path: Path,
    subset: Subset,
    notes: str,
    changed: dict[str, UsageRecord],
    problems: list[str],
    unreadable: dict[str, str],
    texts: dict[str, str] | None = None,
) -> None:
    """Cache the records of notes commit `notes`: those of `subset`'s commit with `changed`
    replaced (what the flush wrote; `texts`: their cache texts where already made), and the
    problems and unreadable notes left. `subset`'s lines are updated in place."""
    items = subset.items
    texts = texts or {}
    items.update({n: _item(n, texts.get(n) or cache_text(r)) for n, r in changed.items()})
    write_cache(path, _laid_out(notes, problems, unreadable, ",\n".join(items.values())))

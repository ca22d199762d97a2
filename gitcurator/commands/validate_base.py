"""What `validate`'s delta path starts from: the facts behind the last whole-library result.

statefiles.VALIDATE_BASE extends the quick file (commands/validate_quick) it names by its
fingerprint's digest: each folder's ctime and each file's stat text the digest was made of,
each folder's kind (worktree_fingerprint.FOLDER_KINDS), and what the result was put together
from. That is every live skill's own findings and name (in the result's order of skills),
the archived skills, the nested-repository warnings, each reference source's warnings with
the absorbed names they were found with, and the ignore files. commands/validate_delta
checks again only the skills and sources whose files changed, and joins the rest as kept.

It is written with the quick file and under the same rule (every entry older than git's racy
second), and read as defensively: a file under another key or digest, or of another shape,
is not used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitcurator.commands.validate_quick import (
    finding_doc,
    finding_of,
    location_doc,
    location_of,
    read_state,
    write_state,
)
from gitcurator.skills.check_memo import Summary
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.document import SkillLocation
from gitcurator.statefiles import VALIDATE_BASE
from gitcurator.store.worktree_fingerprint import FOLDER_KINDS, TreePrint


@dataclass(frozen=True, slots=True)
class BaseFacts:
    """What a whole-library result was put together from (see the module's docstring);
    `own` lines up with the result's checked skills."""

    own: tuple[Summary, ...]
    archived: tuple[SkillLocation, ...]
    nested: tuple[Finding, ...]
    refs: dict[str, tuple[Finding, ...]]
    aliases: dict[str, str]
    ignores: tuple[str, ...]  # the `.gitignore` files the walk followed
    extra: tuple[str, ...]  # fingerprinted files that are no path of the tree (ignored ones)


@dataclass(frozen=True, slots=True)
class Base:
    """A base as read: the stat data the fingerprint was made of, and the facts."""

    ctimes: list[int]
    texts: list[str]
    kinds: str
    facts: BaseFacts


def read_base(
    folder: Path, key: str, digest: str, dirs: int, files: int, pair: object
) -> Base | None:
    """The base of the quick file whose fingerprint is `digest` (over `dirs` folders and
    `files` files) and whose pairing token is `pair`, if it is whole and made under `key`
    (TypeError etc. for one of another shape: the caller's DAMAGE)."""
    doc = read_state(folder / VALIDATE_BASE, key)
    # The digest alone would pair a base with another run's quick file of the same tree: two
    # runs at once, --strict and not (or over other notes), interleaving their two writes.
    if doc["print"] != digest or type(pair) is not str or doc["pair"] != pair:
        return None
    ctimes, texts, kinds = doc["ctimes"], doc["texts"], doc["kinds"]
    if type(ctimes) is not list or not all(type(c) is int for c in ctimes):
        raise TypeError("not ctimes")
    if type(texts) is not str or type(kinds) is not str or kinds.strip(FOLDER_KINDS):
        raise TypeError("not stat texts")
    lines = texts.split("\n") if texts else []
    if len(ctimes) != dirs or len(kinds) != dirs or len(lines) != files:
        raise TypeError("not this fingerprint's base")
    return Base(ctimes, lines, kinds, _facts_of(doc))


def pairing_token() -> str:
    """A new token tying a base to the quick file saved with it."""
    import secrets

    return secrets.token_hex(8)


def save_base(folder: Path, key: str, fingerprint: TreePrint, facts: BaseFacts, pair: str) -> None:
    """Keep `facts` as the base of the quick file `fingerprint` is written with, holding the
    same token `pair` (before it: until that file is written, no quick file holds it)."""
    doc = {
        "print": fingerprint.digest,
        "pair": pair,
        "ctimes": list(fingerprint.ctimes),
        "texts": "\n".join(fingerprint.texts),
        "kinds": fingerprint.kinds,
        "own": {
            str(i): [finding_doc(f) for f in found]
            for i, (found, _) in enumerate(facts.own)
            if found
        },
        "names": [name for _, name in facts.own],
        "archived": [location_doc(s) for s in facts.archived],
        "nested": [finding_doc(f) for f in facts.nested],
        "refs": {path: [finding_doc(f) for f in found] for path, found in facts.refs.items()},
        "aliases": facts.aliases,
        "ignores": list(facts.ignores),
        "extra": list(facts.extra),
    }
    write_state(folder / VALIDATE_BASE, key, doc)


def _facts_of(doc: dict[str, object]) -> BaseFacts:
    names, own = doc["names"], doc["own"]
    if type(names) is not list or not all(type(n) is str for n in names):
        raise TypeError("not names")
    if not isinstance(own, dict):
        raise TypeError("not findings")
    found: list[tuple[Finding, ...]] = [()] * len(names)
    for at, findings in own.items():
        i = int(at)
        if not 0 <= i < len(names):
            raise TypeError("not a skill's findings")
        found[i] = tuple(finding_of(f) for f in _list(findings))
    refs, aliases = doc["refs"], doc["aliases"]
    if not isinstance(refs, dict) or not isinstance(aliases, dict):
        raise TypeError("not warnings")
    if not all(type(k) is str and type(v) is str for k, v in aliases.items()):
        raise TypeError("not absorbed names")
    return BaseFacts(
        tuple(zip(found, names, strict=True)),
        tuple(location_of(v) for v in _list(doc["archived"])),
        tuple(finding_of(f) for f in _list(doc["nested"])),
        {str(path): tuple(finding_of(f) for f in _list(v)) for path, v in refs.items()},
        aliases,
        _paths(doc["ignores"]),
        _paths(doc["extra"]),
    )


def _list(value: object) -> list[object]:
    if type(value) is not list:
        raise TypeError("not a list")
    return value


def _paths(value: object) -> tuple[str, ...]:
    paths = _list(value)
    if not all(type(p) is str for p in paths):
        raise TypeError("not a path")
    return tuple(str(p) for p in paths)

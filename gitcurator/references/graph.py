"""The reference graph as values (pure): each reference from a skill or a reference file to a
skill's name, with its kind and where it is written, and the lookups `refs`, `validate` and a
pass make of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Reference:
    """`source` (a skill's name, or a reference file's path) refers to the skill `target`."""

    source: str
    from_skill: bool  # False: a reference file (AGENTS.md, CLAUDE.md, ...)
    live: bool  # the source is a live skill or a reference file, not an archived skill
    target: str
    kind: str  # a kind of references.mentions
    path: str  # the file it is written in
    line: int
    text: str  # as written: the name, or the link's destination

    @property
    def where(self) -> str:
        """`path:line`."""
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        """As `refs --json` lists it."""
        return {
            "source": self.source,
            "source_kind": "skill" if self.from_skill else "file",
            "live": self.live,
            "target": self.target,
            "kind": self.kind,
            "path": self.path,
            "line": self.line,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class ReferenceGraph:
    """Every reference found, and the files left unread (binary, huge, symlinks), in words."""

    references: tuple[Reference, ...] = ()
    notes: tuple[str, ...] = ()
    _to: dict[str, list[Reference]] = field(default_factory=dict, compare=False, repr=False)
    _of: dict[str, list[Reference]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for ref in self.references:
            self._to.setdefault(ref.target, []).append(ref)
            if ref.from_skill:
                self._of.setdefault(ref.source, []).append(ref)

    def to(self, name: str) -> list[Reference]:
        """What refers to `name`."""
        return list(self._to.get(name, ()))

    def of(self, name: str) -> list[Reference]:
        """What the skill `name` refers to."""
        return list(self._of.get(name, ()))

    def targets(self) -> list[str]:
        """Every name something refers to, sorted."""
        return sorted(self._to)

    def live_referrers(
        self, aliases: Mapping[str, str] | None = None
    ) -> dict[str, tuple[tuple[str, str], ...]]:
        """name -> (referring skill, or "" for a reference file; `path:line`) of each
        reference from a live skill or a reference file, sorted; with `aliases` (absorbed
        name -> umbrella), a reference to an absorbed name counts for its umbrella too."""
        found: dict[str, set[tuple[str, str]]] = {}
        for ref in self.references:
            if not ref.live:
                continue
            who = (ref.source if ref.from_skill else "", ref.where)
            found.setdefault(ref.target, set()).add(who)
            if aliases and ref.target in aliases:
                found.setdefault(aliases[ref.target], set()).add(who)
        return {name: tuple(sorted(who)) for name, who in sorted(found.items())}


def graph_of(references: Iterable[Reference], notes: Sequence[str] = ()) -> ReferenceGraph:
    """A graph of `references`, in the order of their files and lines."""
    ordered = sorted(references, key=lambda r: (r.path, r.line, r.target, r.kind))
    return ReferenceGraph(tuple(ordered), tuple(notes))

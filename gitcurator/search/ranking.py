"""Skills ranked by wording, with the model `clusters` uses (pure).

Each skill's text (name parts, description twice, start of the body) gets the TF-IDF vector
`umbrella.wording` computes for it; a query scores a skill by the cosine between that vector
and the query's content words, each weighing the same (a query is a few words: its own
term frequencies say nothing).

An index is also kept as text (`to_text`, `from_text`): a header line, one line of the skills,
then one line per word with its postings. Read back, only the lines of a query's words are
parsed, so a warm search of 10,000 skills costs milliseconds; the weights are written as
`repr` of the floats, so a search of the text ranks exactly as one of the index it came from.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gitcurator.umbrella.wording import Described, skill_text, tfidf_vectors, word_counts

FORMAT = 1  # the text form's version: a cache of another version is rebuilt


class Searchable(Described, Protocol):
    """What a skill is indexed by: its wording and its folder (a `Candidate` is one)."""

    @property
    def path(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Hit:
    """One skill a query found: its name, folder, description, score and whether archived."""

    name: str
    folder: str
    description: str
    score: float
    archived: bool = False


class WordIndex:
    """The wording vectors of one library snapshot, built once, searched per query."""

    def __init__(
        self, skills: Sequence[Searchable], archived: frozenset[str] = frozenset()
    ) -> None:
        """Index `skills`; those whose folder is in `archived` are archived skills."""
        self._skills: list[Any] = [
            (s.name, s.path, s.description, s.path in archived) for s in skills
        ]
        self._memo: dict[str, str | None] = {}
        self._postings: dict[str, list[tuple[int, float]]] = {}
        self._lines: dict[str, str] = {}
        vectors = tfidf_vectors([skill_text(s) for s in skills], self._memo)
        for i, vector in enumerate(vectors):
            for word, weight in vector.items():
                self._postings.setdefault(word, []).append((i, weight))

    @property
    def size(self) -> int:
        """How many skills the index holds."""
        return len(self._skills)

    def query_words(self, query: str) -> list[str]:
        """The content words of `query` the index is searched for (none: only stop words)."""
        return list(word_counts(query, self._memo))

    def search(self, query: str, limit: int, archived: bool = False) -> list[Hit]:
        """Up to `limit` hits, best first (ties by name); only skills sharing a word, and
        archived skills only when `archived`."""
        words = self.query_words(query)
        if not words:
            return []
        scores: dict[int, float] = {}
        for word in words:
            for i, weight in self._posting(word):
                scores[i] = scores.get(i, 0.0) + weight
        norm = math.sqrt(len(words))
        found = []
        for i, score in scores.items():
            row = _row(self._skills[i])
            if row is not None and (archived or not row[3]):
                found.append((-score, row))
        found.sort(key=lambda item: (item[0], item[1][0]))
        return [
            Hit(row[0], row[1], row[2], round(-neg / norm, 4), row[3]) for neg, row in found[:limit]
        ]

    def to_text(self, key: str) -> str:
        """The index as text, for the snapshot named `key` (see the module docstring)."""
        lines = [json.dumps([list(s) for s in self._skills])]
        for word in sorted(self._postings):
            postings = " ".join(f"{i}:{w!r}" for i, w in self._postings[word])
            lines.append(f"{word}\t{postings}")
        body = "\n".join(lines) + "\n"
        header = {"format": FORMAT, "key": key, "digest": _digest(body)}
        return json.dumps(header) + "\n" + body

    @classmethod
    def from_text(cls, text: str, key: str) -> WordIndex | None:
        """The index `to_text(key)` wrote, or None when `text` is of another key, another
        format or damaged: its digest covers every byte after the header, so a cut or edited
        cache is never searched (the caller rebuilds it)."""
        head, _, rest = text.partition("\n")
        skills_line, _, words = rest.partition("\n")
        try:
            header = json.loads(head)
            if header != {"format": FORMAT, "key": key, "digest": _digest(rest)}:
                return None
            skills = json.loads(skills_line)
            if not isinstance(skills, list):
                return None
            lines = dict(_word_line(line) for line in words.splitlines())
        except (ValueError, TypeError, RecursionError):
            return None
        index = cls.__new__(cls)
        # The digest vouches for the rows (only this code writes them); each is still checked
        # when a hit is made of it, so even a forged cache cannot crash a search.
        index._skills = skills
        index._memo = {}
        index._postings = {}
        index._lines = lines
        return index

    def _posting(self, word: str) -> list[tuple[int, float]]:
        found = self._postings.get(word)
        if found is None and word in self._lines:
            try:
                found = [_pair(p, len(self._skills)) for p in self._lines.pop(word).split(" ")]
            except (ValueError, IndexError):
                found = []  # a damaged line: the word matches nothing rather than failing
            self._postings[word] = found
        return found or []


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()


def _row(row: Any) -> tuple[str, str, str, bool] | None:
    """A skill row of the index, or None when it is not one (a forged cache)."""
    if isinstance(row, list | tuple) and len(row) == 4:
        name, folder, description, archived = row
        texts = all(isinstance(x, str) for x in (name, folder, description))
        if texts and isinstance(archived, bool):
            return name, folder, description, archived
    return None


def _word_line(line: str) -> tuple[str, str]:
    word, tab, postings = line.partition("\t")
    if not tab:
        raise ValueError(f"no postings on {line[:40]!r}")
    return word, postings


def _pair(text: str, size: int) -> tuple[int, float]:
    i, _, weight = text.partition(":")
    index = int(i)
    if not 0 <= index < size:
        raise IndexError(index)
    return index, float(weight)

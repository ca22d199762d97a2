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
        self._skills = [(s.name, s.path, s.description, s.path in archived) for s in skills]
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
                if archived or not self._skills[i][3]:
                    scores[i] = scores.get(i, 0.0) + weight
        norm = math.sqrt(len(words))
        ranked = sorted(scores.items(), key=lambda item: (-item[1], self._skills[item[0]][0]))
        return [
            Hit(*self._skills[i][:3], round(score / norm, 4), self._skills[i][3])
            for i, score in ranked[:limit]
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
            if not _is_skill_list(skills):
                return None
            lines = dict(_word_line(line) for line in words.splitlines())
        except (ValueError, TypeError, RecursionError):
            return None
        index = cls.__new__(cls)
        index._skills = [(s[0], s[1], s[2], s[3]) for s in skills]
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


def _is_skill_list(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(s, list)
        and len(s) == 4
        and all(isinstance(x, str) for x in s[:3])
        and isinstance(s[3], bool)
        for s in value
    )


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

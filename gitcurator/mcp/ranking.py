"""`list_skills(query)`: skills ranked by wording, with the model `clusters` uses (pure).

Each skill's text (name parts, description twice, start of the body) gets the TF-IDF vector
`umbrella.wording` computes for it; a query scores a skill by the cosine between that vector
and the query's content words, each weighing the same (a query is a few words: its own
term frequencies say nothing).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.wording import skill_text, tfidf_vectors, word_counts


class WordIndex:
    """The wording vectors of one library snapshot, built once, searched per query."""

    def __init__(self, skills: Sequence[Candidate]) -> None:
        self._names = [s.name for s in skills]
        self._memo: dict[str, str | None] = {}
        self._postings: dict[str, list[tuple[int, float]]] = {}
        vectors = tfidf_vectors([skill_text(s) for s in skills], self._memo)
        for i, vector in enumerate(vectors):
            for word, weight in vector.items():
                self._postings.setdefault(word, []).append((i, weight))

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        """Up to `limit` (name, score) pairs, best first; only skills sharing a word."""
        words = list(word_counts(query, self._memo))
        if not words:
            return []
        scores: dict[int, float] = {}
        for word in words:
            for i, weight in self._postings.get(word, ()):
                scores[i] = scores.get(i, 0.0) + weight
        norm = math.sqrt(len(words))
        ranked = sorted(scores.items(), key=lambda item: (-item[1], self._names[item[0]]))
        return [(self._names[i], round(score / norm, 4)) for i, score in ranked[:limit]]

"""Wording links: which skills of a library say alike things, pair by pair (pure).

Each skill is read as what it says, not what it is called (its name is a signal of its own,
clusters.py): description and the start of its body, with the library's template lines left
out (templates.py) and words weighed by how few skills use them (TF-IDF over the library), so
a description template most of a library shares counts for nothing and a word only two
skills use counts most. Only pairs sharing a word are scored, through an inverted index, so
the cost follows the shared vocabulary rather than the library's size squared.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from gitcurator.umbrella.templates import own_texts
from gitcurator.umbrella.wording import (
    Described,
    compared_text,
    idf,
    spellings,
    top_words,
    weighted,
    word_counts,
)

# A word held by more skills than this makes no pairs by itself (see Wording.pairs).
_MAX_POSTINGS = 200


@dataclass(frozen=True, slots=True)
class Wording:
    """The weighted words of each skill (indices as given) and how to spell them."""

    vectors: list[dict[str, float]]
    spelling: dict[str, str]

    def score(self, a: int, b: int) -> float:
        """The cosine of skills `a` and `b`."""
        mine, theirs = self.vectors[a], self.vectors[b]
        if len(theirs) < len(mine):
            mine, theirs = theirs, mine
        return sum(w * theirs.get(word, 0.0) for word, w in mine.items())

    def words(self, a: int, b: int) -> tuple[str, ...]:
        """The shared words that add most to the cosine of `a` and `b`, as written."""
        shared = top_words(self.vectors[a], self.vectors[b])
        return tuple(self.spelling.get(w, w) for w in shared)

    def pairs(self, floor: float) -> dict[tuple[int, int], float]:
        """(a, b) with a < b -> cosine, for every pair scoring at least `floor`.

        A word held by very many skills makes no pairs (it is no evidence of kinship and would
        cost n² when a library is full of such words); it still counts in the score of the
        pairs found.
        """
        df: Counter[str] = Counter()
        for vector in self.vectors:
            df.update(vector.keys())
        # Skills are taken last to first, each scored against those after it (already
        # posted), so every pair is met once and no posting is skipped.
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        found: dict[tuple[int, int], float] = {}
        for a in range(len(self.vectors) - 1, -1, -1):
            vector = self.vectors[a]
            sums: dict[int, float] = defaultdict(float)
            crowded = []
            for word, weight in vector.items():
                if df[word] > _MAX_POSTINGS:
                    crowded.append((word, weight))
                    continue
                for b, their_weight in postings[word]:
                    sums[b] += weight * their_weight
                postings[word].append((a, weight))
            # What the crowded words can add is at most their part's norm (Cauchy-Schwarz).
            bound = math.sqrt(sum(w * w for _, w in crowded))
            for b, partial in sums.items():
                if partial + bound < floor:
                    continue
                theirs = self.vectors[b]
                score = round(partial + sum(w * theirs.get(x, 0.0) for x, w in crowded), 4)
                if score >= floor:
                    found[(a, b)] = score
        return dict(sorted(found.items()))


def read_wording(skills: Sequence[Described]) -> Wording:
    """The wording of `skills`, weighed over them as one library.

    What is compared is each skill's own text (its template lines left out), but how rare a
    word is comes from the whole text of every skill: a word of the template stays as common
    as the library made it, even in the lines that escaped the template by a detail.
    """
    memo: dict[str, str | None] = {}
    own = [word_counts(compared_text("", d, body), memo) for d, body in own_texts(skills)]
    df: Counter[str] = Counter()
    for skill in skills:
        df.update(word_counts(compared_text("", skill.description, skill.body), memo).keys())
    weights = idf(df, len(skills))
    return Wording([weighted(counts, weights) for counts in own], spellings(memo))

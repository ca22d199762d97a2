"""Wording links: where a skill whose name joins no family belongs by what it says (pure).

Each such loner is compared with the other loners one by one and with each name family as a
whole (the centroid of its members' wording), and links to its closest match when their
TF-IDF cosine reaches a threshold. Only units sharing a word are scored, through an inverted
index, so the cost follows the shared vocabulary rather than the library's size squared.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gitcurator.umbrella.wording import (
    Described,
    centroid,
    skill_text,
    spellings,
    tfidf_vectors,
    top_words,
)

# A word held by more units than this makes no candidates by itself (see _closest).
_MAX_POSTINGS = 200


@dataclass(frozen=True, slots=True)
class WordingLink:
    """Why loner `a` joins skill `b` (indices into the name-sorted skills): its wording is
    like `b`'s, or, when `family` is set, like that whole family's (`b` is its first member)."""

    a: int
    b: int
    score: float
    words: tuple[str, ...]  # the shared words that weigh most, for the reason
    family: str | None = None


def loner_links(
    skills: Sequence[Described], families: Mapping[int, str], threshold: float
) -> list[WordingLink]:
    """For each skill without a name family, its closest match at `threshold` or above:
    another such skill, or a family as a whole (the centroid of its members' wording).

    Names already say which family a skill belongs to; wording only places the skills whose
    names do not. Comparing against a family's centroid weighs what its members share (the
    action, the tool) over what one member happens to share with the loner. One link per
    loner keeps a chain of look-alikes from gluing families together.
    """
    memo: dict[str, str | None] = {}
    vectors = tfidf_vectors([skill_text(s) for s in skills], memo)
    spelling = spellings(memo)
    loners = [i for i in range(len(skills)) if i not in families]
    members: dict[str, list[int]] = defaultdict(list)
    for i in sorted(families):
        members[families[i]].append(i)
    # Units are compared: loners one by one, families as centroids (keyed by first member).
    units: dict[int, tuple[dict[str, float], str | None]] = {i: (vectors[i], None) for i in loners}
    for name, indices in members.items():
        units[indices[0]] = (centroid(vectors[i] for i in indices), name)
    unit_vectors = {k: v for k, (v, _) in units.items()}
    postings = _postings(unit_vectors)
    links = []
    for me in loners:
        closest = _closest(me, vectors[me], postings, unit_vectors, threshold)
        if closest is not None:
            other, score = closest
            vector, family = units[other]
            shared = tuple(spelling[w] for w in top_words(vectors[me], vector))
            links.append(WordingLink(me, other, round(score, 4), shared, family))
    return links


def _postings(vectors: Mapping[int, Mapping[str, float]]) -> dict[str, list[tuple[int, float]]]:
    """word -> (unit, weight) of every unit holding it, units in index order."""
    postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for i in sorted(vectors):
        for word, weight in vectors[i].items():
            postings[word].append((i, weight))
    return postings


def _closest(
    me: int,
    vector: Mapping[str, float],
    postings: Mapping[str, list[tuple[int, float]]],
    units: Mapping[int, Mapping[str, float]],
    threshold: float,
) -> tuple[int, float] | None:
    """The unit most similar to `me` (ties: the first) if at or above `threshold`.

    A word held by very many units does not make candidates (it is no evidence of kinship and
    would cost n² when a library is full of such words); it still counts in the score of the
    candidates found.
    """
    scores: dict[int, float] = defaultdict(float)
    crowded = []
    for word, weight in vector.items():
        entries = postings[word]
        if len(entries) > _MAX_POSTINGS:
            crowded.append((word, weight))
            continue
        for other, theirs in entries:
            scores[other] += weight * theirs
    scores.pop(me, None)
    if not scores:
        return None
    for other in scores:
        scores[other] += sum(weight * units[other].get(word, 0.0) for word, weight in crowded)
    other = min(scores, key=lambda j: (-scores[j], j))
    return (other, scores[other]) if scores[other] >= threshold else None

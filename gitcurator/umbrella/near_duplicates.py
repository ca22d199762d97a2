"""The near-duplicate guard of `commit`: existing skills a new one is very like (pure).

Wording is compared the way the clusters compare it (wording.py's words, text and TF-IDF
weighting), but from word counts rather than texts, so the shell can keep each SKILL.md's
counts in a cache keyed by its blob and a 10,000-skill library is not re-read on every commit.
Only the new skills are scored, each against the skills sharing a telling word with it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.wording import (
    WORD,
    idf,
    skill_text,
    spellings,
    top_words,
    weighted,
    word_counts,
)

# Cosine at which a new skill is a near-copy of an existing one. `pdf-table-extraction`, a copy
# of `pdf-extract-tables` reworded sentence by sentence (tests/test_similar.py), scores 0.70
# against it alone and 0.75 among the 177 skills of hermes-agent 0.19.0 (tests/data/fetch.py);
# siblings on another subtopic score 0.21-0.25 (`pdf-merge`, `pdf-extract-images`). In hermes,
# each skill's closest *different* skill scores 0.06-0.59 (median 0.18, 90th percentile 0.45);
# copies with a fifth of their words replaced by unseen ones score 0.68-0.93 (median 0.82).
# The templated siblings of bench/bench_cluster.py (shared tool, verb and filler text) score
# a median 0.67 against their closest sibling: generated text, closer than real siblings.
SIMILAR_THRESHOLD = 0.65
# A wording match shares at least this many words. Once a library's boilerplate is left out, a
# generated skill may keep only its product's name: `agent-mail-automation` and
# `mails-so-automation` of one public library then score 1.00 on the one word `mail`. A copy
# shares dozens of words; the same description is matched on its own.
MIN_SHARED_WORDS = 3
# Bump when what a profile holds changes, so the cache of `commit` re-reads every skill
# (format 2: the body excerpt is cut at a word boundary, wording.excerpt).
PROFILE_FORMAT = 2
# A word held by more skills than this does not make candidates by itself (see _candidates).
_MAX_POSTINGS = 200


@dataclass(frozen=True, slots=True)
class Profile:
    """What a skill is compared by: its name, its description's words, and the word counts of
    word_counts(skill_text(...)) packed as one string, `word count word count` (the form a
    cache stores: one JSON string per skill loads fast, and only the skills compared are
    unpacked)."""

    name: str
    description_key: str
    packed: str

    def vocabulary(self) -> list[str]:
        """The distinct words."""
        return self.packed.split()[::2]

    def counts(self) -> dict[str, int]:
        """word -> count."""
        parts = iter(self.packed.split())
        return {w: int(c) for w, c in zip(parts, parts, strict=False)}


@dataclass(frozen=True, slots=True)
class Match:
    """New skill `new` is very like existing skill `existing`: wording `score` (cosine), the
    shared `words` that weigh most, and whether their descriptions say the same."""

    new: str
    existing: str
    score: float
    words: tuple[str, ...]
    same_description: bool = False

    def reason(self) -> str:
        """`pdf-extract-tables (similarity 0.91: tables, pdf, extract)`."""
        why = f"similarity {self.score:.2f}"
        if self.words:
            why += ": " + ", ".join(self.words)
        if self.same_description:
            why = "the same description, " + why
        return f"{self.existing} ({why})"

    def to_json(self) -> dict[str, Any]:
        return {
            "new": self.new,
            "existing": self.existing,
            "score": self.score,
            "words": list(self.words),
            "same_description": self.same_description,
        }


def description_key(description: str) -> str:
    """A description reduced to its lower-cased words: two that differ only in case, spacing or
    punctuation say the same."""
    return " ".join(WORD.findall(description.lower()))


def pack_words(words: Mapping[str, int]) -> str:
    """Word counts as Profile.packed holds them."""
    return " ".join(f"{w} {c}" for w, c in words.items())


def profile(candidate: Candidate, memo: dict[str, str | None] | None = None) -> Profile:
    """A skill's profile from its name, description and body."""
    words = word_counts(skill_text(candidate), memo)
    return Profile(candidate.name, description_key(candidate.description), pack_words(words))


def find_similar(
    new: Sequence[Candidate],
    existing: Sequence[Profile],
    *,
    threshold: float = SIMILAR_THRESHOLD,
) -> list[Match]:
    """Existing skills at least `threshold` like each new skill (or with the same description),
    by new skill in the given order, then by score, highest first; ties by name.

    Only the existing skills are compared: new skills written together are not each other's
    duplicates to the guard, though they count in the weighting (the library after the commit).
    """
    memo: dict[str, str | None] = {}
    mine = [profile(c, memo) for c in new]
    spelling = spellings(memo)
    vocabularies = [p.vocabulary() for p in existing]
    df: Counter[str] = Counter()
    for vocabulary in (*vocabularies, *(p.vocabulary() for p in mine)):
        df.update(vocabulary)
    weights = idf(df, len(existing) + len(mine))
    by_description: dict[str, list[int]] = {}
    for i, p in enumerate(existing):
        if p.description_key:
            by_description.setdefault(p.description_key, []).append(i)
    found: list[Match] = []
    for me in mine:
        vector = weighted(me.counts(), weights)
        same = set(by_description.get(me.description_key, ())) if me.description_key else set()
        matches = []
        for i in sorted(_candidates(vector, vocabularies, df, threshold) | same):
            other = existing[i]
            theirs = weighted(other.counts(), weights)
            score = round(sum(w * theirs.get(word, 0.0) for word, w in vector.items()), 4)
            alike = score >= threshold and len(vector.keys() & theirs.keys()) >= MIN_SHARED_WORDS
            if alike or i in same:
                words = tuple(spelling.get(w, w) for w in top_words(vector, theirs))
                matches.append(Match(me.name, other.name, score, words, i in same))
        found.extend(sorted(matches, key=lambda m: (-m.score, m.existing)))
    return found


def _candidates(
    vector: Mapping[str, float],
    vocabularies: Sequence[list[str]],
    df: Mapping[str, int],
    threshold: float,
) -> set[int]:
    """The existing skills that may reach `threshold`: those sharing a telling word.

    A word held by more than _MAX_POSTINGS skills makes no candidates, so a new skill is scored
    against dozens of skills rather than thousands. That is exact, not a heuristic: a skill
    sharing only such words scores at most the norm of the new vector's part on them (Cauchy-
    Schwarz; the other vector has unit length); only when that bound reaches the threshold is
    every skill sharing any word scored.
    """
    crowded = {w for w in vector if df[w] > _MAX_POSTINGS}
    bound = math.sqrt(sum(vector[w] ** 2 for w in crowded))
    telling = vector.keys() - crowded if bound < threshold else vector.keys()
    if not telling:
        return set()
    return {i for i, words in enumerate(vocabularies) if not telling.isdisjoint(words)}


def refusal(matches: Sequence[Match], *, limit: int = 3) -> list[str]:
    """One line per new skill naming what it is like, closest first (at most `limit` each)."""
    by_new: dict[str, list[Match]] = {}
    for m in matches:
        by_new.setdefault(m.new, []).append(m)
    lines = []
    for name, ms in by_new.items():
        named = " and ".join(m.reason() for m in ms[:limit])
        more = f" (and {len(ms) - limit} more)" if len(ms) > limit else ""
        lines.append(f"new skill {name} is very similar to {named}{more}")
    return lines

"""The wording model: what a skill's text says, as weighted words (pure).

Clusters, the near-duplicate guard and retention all read text the same way: lower-cased
words, stop words and short or numeric tokens dropped, plurals folded; weighed by sublinear
tf × smoothed idf, L2-normalised, with a library's boilerplate words left out.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

# Only the start of a long body is compared: it says what the skill is for; the rest is steps.
BODY_CHARS = 2000
# Imaginary texts sharing no word with the library, added to every word's idf (see idf).
UNSEEN_DOCS = 50
# A word in at most this many texts is never boilerplate, however small the library: two
# clusters' worth (clusters.MAX_CLUSTER is 12), so a family's own words always count.
MIN_BOILERPLATE_DF = 24

WORD = re.compile(r"[^\W_]+")
_LAST_WORD = re.compile(r"[^\W_]+\Z")

# Words that say nothing about what a skill is for. Corpus-wide frequent words are dropped
# as well (see boilerplate_df); this list covers libraries too small for frequencies to tell.
# (Word lists read best as text; ruff's SIM905 would make them a column of quoted words.)
STOP_WORDS = frozenset(
    """
    a about above after again against all also an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either
    else etc even ever every few first for from further get gets got had has have having he
    her here hers him his how however i if in into is it its itself just let like may me might
    more most much must my need needs never no nor not now of off on once one only or other our
    out over own per rather same see should so some such than that the their them then there
    these they this those through thus to too under until up upon us use used uses using very
    via was way we well were what when where whether which while who whom why will with within
    without would yet you your

    agent agents ask asks asked skill skills task tasks step steps user users want wants
    example examples note notes work works working make makes help helps sure always usually
    instead something anything thing things new run runs following follow follows
    """.split()  # noqa: SIM905
)


class Described(Protocol):
    """What the wording of a skill is read from."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def body(self) -> str: ...


def name_tokens(name: str) -> list[str]:
    """A skill name's hyphen-separated parts."""
    return [t for t in name.split("-") if t]


def word_counts(text: str, memo: dict[str, str | None] | None = None) -> Counter[str]:
    """Content words of `text` and how often each occurs: lower-cased, stop words and short or
    numeric tokens dropped, plurals folded (`tables` → `table`) so a sibling's phrasing still
    matches. `memo` carries token decisions from text to text (a library repeats its words)."""
    memo = {} if memo is None else memo
    counts: Counter[str] = Counter()
    for token, count in Counter(WORD.findall(text.lower())).items():
        if token not in memo:
            skip = len(token) < 3 or token.isdigit() or token in STOP_WORDS
            memo[token] = None if skip else _singular(token)
        word = memo[token]
        if word is not None:
            counts[word] += count
    return counts


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def skill_text(skill: Described) -> str:
    """What is compared: name parts, description (twice), and the start of the body.

    The description counts double: it is what an agent reads to pick a skill, so skills
    whose descriptions overlap are the ones it confuses.
    """
    return compared_text(" ".join(name_tokens(skill.name)), skill.description, skill.body)


def compared_text(name: str, description: str, body: str) -> str:
    """skill_text of these parts (clusters pass no name: names are a signal of their own)."""
    return " ".join((name, description, description, excerpt(body)))


def excerpt(text: str, limit: int = BODY_CHARS) -> str:
    """The start of `text`, at most `limit` characters, cut at a word boundary.

    A cut inside a word leaves a fragment (`alw` of `always`) that no other text holds unless
    it was cut at the same place: a rare word, weighing most, shared only by accident.
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    if WORD.match(text, limit):  # the next character goes on with the last word: drop it
        head = _LAST_WORD.sub("", head)
    return head


def boilerplate_df(n: int) -> int:
    """How many of `n` texts a word may be in before it is boilerplate, not a subject."""
    # A word in more than a quarter of a large library is its boilerplate; leaving it out
    # also bounds the work, which grows with each word's postings.
    return max(MIN_BOILERPLATE_DF, n // 4)


def idf(df: Mapping[str, int], n: int) -> dict[str, float]:
    """Smoothed idf of each word of `n` texts that is not boilerplate (see boilerplate_df)."""
    # Idf as if the library also held UNSEEN_DOCS texts without these words: a library of
    # five cannot tell a common word from a rare one, so every word counts about the same
    # there, while a library of a thousand decides by itself.
    cap = boilerplate_df(n)
    total = 1 + n + UNSEEN_DOCS
    return {w: math.log(total / (1 + c)) + 1 for w, c in df.items() if c <= cap}


def weighted(counts: Mapping[str, int], weights: Mapping[str, float]) -> dict[str, float]:
    """Sublinear tf × idf of one text's word counts, L2-normalised."""
    return normalised(
        {w: (1 + math.log(c)) * weights[w] for w, c in counts.items() if w in weights and c > 0}
    )


def tfidf_vectors(
    texts: Sequence[str], memo: dict[str, str | None] | None = None
) -> list[dict[str, float]]:
    """Sublinear tf × smoothed idf per text, L2-normalised; boilerplate words left out.
    `memo` (see word_counts) is filled with every token seen and the word it counts as."""
    memo = {} if memo is None else memo
    docs = [word_counts(t, memo) for t in texts]
    df: Counter[str] = Counter()
    for doc in docs:
        df.update(doc.keys())
    weights = idf(df, len(docs))
    return [weighted(d, weights) for d in docs]


def normalised(vector: Mapping[str, float]) -> dict[str, float]:
    """`vector` scaled to unit length (an empty one stays empty)."""
    norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
    return {w: v / norm for w, v in vector.items()}


def centroid(vectors: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The normalised sum of `vectors`: what a group of texts says in common."""
    total: dict[str, float] = defaultdict(float)
    for vector in vectors:
        for w, v in vector.items():
            total[w] += v
    return normalised(total)


def top_words(a: Mapping[str, float], b: Mapping[str, float], k: int = 3) -> tuple[str, ...]:
    """The `k` shared words that add most to the cosine of `a` and `b` (ties by word)."""
    shared = sorted(a.keys() & b.keys(), key=lambda w: (-a[w] * b[w], w))
    return tuple(shared[:k])


def spellings(memo: Mapping[str, str | None]) -> dict[str, str]:
    """word -> its shortest spelling seen, so reasons read `kubernetes`, not `kubernete`."""
    spelling: dict[str, str] = {}
    for token, word in sorted(memo.items(), key=lambda kv: (len(kv[0]), kv[0])):
        if word is not None:
            spelling.setdefault(word, token)
    return spelling

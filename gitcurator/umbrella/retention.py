"""How much of a skill's content an umbrella kept (pure).

A skill's distinctive content is the set of its content-word pairs: adjacent words once stop
words are gone (`extract tables`, `pdfplumber page`). Pairs, not single words, because an
umbrella that keeps only the family's vocabulary (`pdf`, `table`, `extract`) has kept the
words and lost the instructions; pairs carry the instructions' shape while tolerating
rewording around them (articles, punctuation, list markers, a heading moved). Each distinct
pair counts once: repeating a line does not make it more retained.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from gitcurator.umbrella.wording import STOP_WORDS, WORD

# A skill this short in pairs is judged by its single words, or it could never pass or fail.
_MIN_PAIRS = 8


def content_words(text: str) -> list[str]:
    """The words of `text` that say something, lower-cased, in order."""
    words = []
    for token in WORD.findall(text.lower()):
        if len(token) < 2 or token in STOP_WORDS:
            continue
        words.append(_fold(token))
    return words


def _fold(word: str) -> str:
    # Plural and singular are the same instruction. Simpler than wording.word_counts' folding
    # (`classes` stays `classe`) and kept so: which umbrellas reach min_retention depends on it.
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def units(text: str) -> set[str]:
    """The distinct content-word pairs of `text` (its single words when it has too few)."""
    words = content_words(text)
    pairs = {f"{a} {b}" for a, b in itertools.pairwise(words)}
    return pairs if len(pairs) >= _MIN_PAIRS else set(words)


def retention(source: str, kept_in: Iterable[str]) -> float:
    """The share of `source`'s distinctive content found in the texts of `kept_in`, 0..1.

    An empty source has nothing to lose: 1.0.
    """
    return retained(source, kept_units(kept_in))


def kept_units(texts: Iterable[str]) -> set[str]:
    """Every content word and content-word pair of `texts` (pairs never span two texts):
    computed once for an umbrella, compared with each skill it folds."""
    words = [w for text in texts for w in _bounded(content_words(text))]
    have = set(words)
    have.update(f"{a} {b}" for a, b in itertools.pairwise(words))
    return have


def retained(source: str, have: set[str]) -> float:
    """The share of `source`'s distinctive content in `have` (see kept_units)."""
    wanted = units(source)
    if not wanted:
        return 1.0
    return round(len(wanted & have) / len(wanted), 3)


def _bounded(words: list[str]) -> list[str]:
    # A separator between texts, so the last word of one and the first of the next do not
    # make a pair found in neither.
    return [*words, "\0"]

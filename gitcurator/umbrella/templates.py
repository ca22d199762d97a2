"""A library's template lines: text many of its skills share, told apart from what each says
(pure).

Generated libraries repeat whole lines from skill to skill with only the skill's own name
changed: 732 of the 832 `<app>-automation` skills of one public library share the description
"Automate <App> tasks via Rube MCP (Composio). Always search tools first for current
schemas." and most of their body. Such lines say how the library was made, not what a skill is
for: two skills sharing them are no more siblings than two pages of one form. Lines are
compared with the skill's own name masked, so "Automate Zerobounce tasks" and "Automate Kickbox
tasks" are one line; a line held by at least template_df(n) of n skills is template.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from gitcurator.umbrella.wording import BODY_CHARS, WORD, Described, excerpt

# A line shorter than this many words (a heading, `---`) is never template: it carries little
# weight anyway, and one word shared is a subject as often as a form.
MIN_TEMPLATE_WORDS = 1
# A line shared by this many skills or fewer is never template, however large the library:
# siblings are often written from one another, a word swapped (`Extract tables from PDF files`,
# `Extract images ...`), and a family that fits one cluster (clusters.MAX_CLUSTER) is what the
# clusters are for.
MIN_TEMPLATE_DF = 12
# Above that, a line held by this share of the library is template.
TEMPLATE_SHARE = 0.02
# Only the start of a body is searched and stripped: the excerpt compared (BODY_CHARS) comes
# from it once its template lines are gone, and a long body's other lines are never read.
SCAN_CHARS = 4 * BODY_CHARS
# What a skill's own name becomes in a line's key.
_NAME = "\x00"


def own_texts(skills: Sequence[Described]) -> list[tuple[str, str]]:
    """Each skill's description and the start of its body (SCAN_CHARS) with the template lines
    of `skills` left out: lines held by template_df(n) of them once each one's name is
    masked."""
    cap = template_df(len(skills))
    lines = [[s.description, *excerpt(s.body, SCAN_CHARS).splitlines()] for s in skills]
    tokens = [[WORD.findall(line.lower()) for line in text] for text in lines]
    words: Counter[str] = Counter()
    for text_tokens in tokens:
        words.update({w for line_tokens in text_tokens for w in line_tokens})
    common = frozenset(w for w, count in words.items() if count >= cap)
    keys = [
        [line_key(line_tokens, name_words(skill.name), common) for line_tokens in text_tokens]
        for skill, text_tokens in zip(skills, tokens, strict=True)
    ]
    df: Counter[str] = Counter()
    for own_keys in keys:
        df.update(set(own_keys) - {""})
    template = {key for key, count in df.items() if count >= cap}
    texts = []
    for text, text_keys in zip(lines, keys, strict=True):
        description, *body = (
            line if key not in template else "" for line, key in zip(text, text_keys, strict=True)
        )
        texts.append((description, "\n".join(line for line in body if line)))
    return texts


def template_df(n: int) -> int:
    """How many of `n` skills must hold a line for it to be template."""
    return max(MIN_TEMPLATE_DF + 1, math.ceil(n * TEMPLATE_SHARE))


def name_words(name: str) -> frozenset[str]:
    """The words a skill's name is written with in its text: each part, and the parts run
    together (`mx-toolbox` is also `mxtoolbox`)."""
    words = WORD.findall(name.lower())
    return frozenset((*words, "".join(words)))


def line_key(words: list[str], own: frozenset[str], common: frozenset[str]) -> str:
    """A line's lower-cased `words` with the skill's name masked, or "" when the line is too
    short to be template.

    A run of the name's words is the name where it holds one the library seldom uses: "API
    Bible" is masked whole in api-bible's lines, while the `api` of "no API key needed" stays
    (`api` is common), so both lines read as every other skill's."""
    if len(words) < MIN_TEMPLATE_WORDS:
        return ""
    if own.isdisjoint(words):
        return " ".join(words)
    masked: list[str] = []
    run: list[str] = []
    for word in [*words, ""]:
        if word and word in own:
            run.append(word)
            continue
        if run:
            masked.extend([_NAME] if not common.issuperset(run) else run)
            run = []
        if word:
            masked.append(word)
    return " ".join(masked)

"""What a library's skill catalogue costs every prompt, in tokens (pure: the counter is given).

Agents load each live skill's name and description at start-up and send that catalogue with
every request (Claude Code's skill list, Codex's `## Skills` section, Hermes' index), so its
size is paid on every turn and a longer list makes the agent choose worse. The figure a pass is
judged by is this catalogue before and after.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

TokenCounter = Callable[[str], int]
ESTIMATE = "estimate"
# An estimate for when no tokenizer is installed: the larger of one token per 4 characters and
# 4 tokens per 3 words. On English skill descriptions it lands within ~15% of o200k_base (the
# encoding of OpenAI's current models; Claude's tokenizer is not public and counts similarly).
_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class CatalogueCost:
    """The catalogue of `skills` live skills costs `tokens`, counted by `tokenizer`."""

    skills: int
    tokens: int
    tokenizer: str

    def as_doc(self) -> dict[str, object]:
        """The JSON form (run.json, `status --json`, `review --json`)."""
        return {"skills": self.skills, "tokens": self.tokens, "tokenizer": self.tokenizer}


def catalogue_line(name: str, description: str) -> str:
    """One skill as agents list it: its name and its description on one line."""
    return f"- {name}: {' '.join(description.split())}"


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate of `text`'s token count (see _WORD's note)."""
    if not text:
        return 0
    return max(math.ceil(len(text) / 4), math.ceil(len(_WORD.findall(text)) * 4 / 3))


def catalogue_cost(
    entries: Iterable[tuple[str, str]],
    count: TokenCounter = estimate_tokens,
    tokenizer: str = ESTIMATE,
) -> CatalogueCost:
    """The cost of the catalogue of `entries` (name, description), one line per skill."""
    lines = [catalogue_line(name, description) for name, description in entries]
    return CatalogueCost(
        skills=len(lines), tokens=count("\n".join(lines)) if lines else 0, tokenizer=tokenizer
    )

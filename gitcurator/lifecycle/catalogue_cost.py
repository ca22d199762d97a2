"""What a library's skill catalogue costs every prompt, in tokens (pure: the counter is given).

Agents load each live skill's name and description at start-up and send that catalogue with
every request (Claude Code's skill list, Codex's `## Skills` section, Hermes' index), so its
size is paid on every turn and a longer list makes the agent choose worse. The figure a pass is
judged by is this catalogue before and after.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gitcurator.skills.document import SkillParseError, find_skills, parse_skill_md

TokenCounter = Callable[[str], int]
ESTIMATE = "estimate"
# A SKILL.md's frontmatter `name` and `description`, None where it has none (or is unreadable).
Described = tuple[str | None, str | None]
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
    return estimate_from(*estimate_parts(text))


def estimate_parts(text: str) -> tuple[int, int]:
    """(characters, words) of `text`, what estimate_tokens counts. Both add up over lines
    joined by newlines (a newline is one character and never part of a word), so a
    catalogue less some lines is counted without reading the rest again."""
    if text.isascii():
        # _WORD's matches, counted by bytes.translate: a tenth of findall's time on a
        # 10,000-skill catalogue. Each run of word characters is one match, each other
        # character that is not a space another.
        data = text.encode("ascii")
        runs = len(data.translate(_WORDS_APART).split())
        return len(text), runs + len(data.translate(None, _NOT_PUNCTUATION))
    return len(text), len(_WORD.findall(text))


def _ascii_classes() -> tuple[bytes, bytes]:
    """(a table turning every ASCII character but word characters into a space, the ASCII
    characters that are not punctuation), each class as _WORD's own regex sees it."""
    word, space = re.compile(r"\w"), re.compile(r"\s")
    apart = bytes(b if word.match(chr(b)) else 32 for b in range(256))
    not_punctuation = bytes(
        b for b in range(128) if word.match(chr(b)) or space.match(chr(b))
    ) + bytes(range(128, 256))
    return apart, not_punctuation


_WORDS_APART, _NOT_PUNCTUATION = _ascii_classes()


def estimate_from(chars: int, words: int) -> int:
    """estimate_tokens of a non-empty text of `chars` characters and `words` words."""
    return max(math.ceil(chars / 4), math.ceil(words * 4 / 3))


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


@dataclass(frozen=True, slots=True)
class CatalogueChange:
    """The catalogue before a pass (the default branch) and after it (the tree it leaves)."""

    before: CatalogueCost
    after: CatalogueCost

    def as_doc(self) -> dict[str, object]:
        """run.json's `catalogue`: {"before": {...}, "after": {...}}."""
        return {"before": self.before.as_doc(), "after": self.after.as_doc()}


def described(data: bytes) -> Described:
    """The frontmatter name and description of SKILL.md `data` ((None, None) if unreadable)."""
    try:
        doc = parse_skill_md(data)
    except SkillParseError:
        return None, None
    return doc.name, doc.description


def catalogue_entries(
    paths: Iterable[str],
    describe: Callable[[str], Described],
    skills_dir: str = "",
    include: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """(name, description) of each live skill among `paths`, as agents load them: the
    frontmatter name (else the folder's) and the description; `describe` reads a SKILL.md path.
    A skill whose SKILL.md cannot be read still counts, by its folder name alone."""
    entries = []
    for loc in find_skills(paths, skills_dir, include):
        if loc.archived:
            continue
        name, description = describe(loc.skill_md)
        entries.append((name or loc.dirname, description or ""))
    return entries


def cost_text(doc: Mapping[str, Any]) -> str:
    """`141 skills, 5,230 tokens (estimate)`: one cost (its as_doc form) in words."""
    return f"{_size(doc)} ({doc['tokenizer']})"


def change_text(catalogue: Mapping[str, Mapping[str, Any]]) -> str:
    """`141 skills, 5,230 tokens → 96 skills, 3,410 tokens (−35%) (estimate)`: run.json's
    `catalogue` in words."""
    before, after = catalogue["before"], catalogue["after"]
    if (before["skills"], before["tokens"]) == (after["skills"], after["tokens"]):
        return f"{cost_text(after)}, unchanged"
    share = ""
    if before["tokens"]:
        percent = round((after["tokens"] - before["tokens"]) * 100 / before["tokens"])
        share = f" ({'−' if percent < 0 else '+'}{abs(percent)}%)" if percent else " (±0%)"
    return f"{_size(before)} → {_size(after)}{share} ({after['tokenizer']})"


def _size(doc: Mapping[str, Any]) -> str:
    return f"{_counted(doc['skills'], 'skill')}, {_counted(doc['tokens'], 'token')}"


def _counted(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"

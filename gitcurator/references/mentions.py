"""Where a text names a skill (pure): the forms an agent or a person uses to point at one.

A name counts only in a form that marks it as a skill's: the whole of an inline code span
(`pdf-forms`), `skill:pdf-forms`, the slash form `/pdf-forms` and the Codex form `$pdf-forms`
(both in prose or inline code), and a hyphenated name in plain prose ("see pdf-forms"). A
single plain word never counts: a skill named `test` or `git` is not referenced by every body
that says the word. Hyphenated names in prose do count: libraries write "use the pdf-forms
skill" without backticks, and a compound that happens to be a skill's name (a skill called
`follow-up`) errs on the side of keeping a skill, never of losing one. Fenced code blocks and
HTML comments are examples and notes, not references: `$HOME` or `/usr` there is shell.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Collection, Iterator

from gitcurator.frozen_rows import frozen_row
from gitcurator.references.related import RELATED, own_name_span, related_skills
from gitcurator.skills.links import in_prose, prose_code_spans

LINK, BACKTICKS, SKILL_PREFIX, SLASH, CODEX, PROSE = (
    "link",
    "backticks",
    "skill-prefix",
    "slash",
    "codex",
    "prose",
)
KINDS = (LINK, BACKTICKS, SKILL_PREFIX, SLASH, CODEX, PROSE, RELATED)
# Forms that say "a skill" whatever the name: a name there that no skill has is reported.
EXPLICIT = frozenset({SKILL_PREFIX})

_TOKEN = r"[^\W_][\w.-]*"
# Each pattern starts with its literal, its lookbehind after it: only then does the regex
# engine skip ahead by substring search instead of trying every position of every body.
_SKILL_PREFIX = re.compile(rf"skill:(?<![\w-]skill:)({_TOKEN})")
_CODEX = re.compile(rf"\$(?<![\w$\\]\$)({_TOKEN})")
# After a space, a quote, a bracket or the start only: `a/b`, `](/x)` and URLs are paths.
_SLASH = re.compile(rf"/(?<![^\s`\"'\[]/)({_TOKEN})(?![\w/.-])")
# Not after `=`, `?`, `&` or `%` (a URL's query) nor before `@` or `=` (an address, a package's
# version, a setting): rewritten, each would break what it is part of.
_PROSE = re.compile(r"(?<![\w./$:@#\\=?&%-])[^\W_]+(?:-[^\W_]+)+(?![\w@=-]|\.\w|/)")
# The rest of a URL after its `://`: found from `://` (a pattern starting with the scheme's
# letters would be tried at every position of every body).
_URL_REST = re.compile(r"[^\s<>\"'`]*")
_LONGEST = 200  # a code span longer than this names no skill
_PREFIXED = ((_SKILL_PREFIX, SKILL_PREFIX, "skill:"), (_SLASH, SLASH, "/"), (_CODEX, CODEX, "$"))


@frozen_row
class Mention:
    """A skill named in a text: `start`..`end` is the name itself (for a link, the path of its
    destination), so a rewrite replaces exactly that."""

    name: str
    kind: str
    start: int
    end: int


def name_mentions(
    text: str, names: Collection[str], *, any_prefixed: bool = False
) -> list[Mention]:
    """Every mention in `text` of a name in `names`, in order; with `any_prefixed`, every
    `skill:NAME` too, known or not."""
    found: list[Mention] = []
    for m in candidate_mentions(text):
        name = known_name(m.kind, m.name, names, any_prefixed)
        if name:
            found.append(Mention(name, m.kind, m.start, m.start + len(name)))
    return found


def candidate_mentions(text: str) -> list[Mention]:
    """Every place of `text` in a form that names a skill, whatever the name: `name` is the
    token as found (see known_name). Independent of the library, so it can be cached."""
    found: list[Mention] = []
    for at, content in prose_code_spans(text):
        stripped = content.strip()
        if stripped and len(stripped) <= _LONGEST:
            start = at + content.index(stripped)
            found.append(Mention(stripped, BACKTICKS, start, start + len(stripped)))
    for pattern, kind, marker in _PREFIXED:
        if marker not in text:
            continue
        for match in pattern.finditer(text):
            if in_prose(text, match.start(), code_spans=True):
                found.append(Mention(match.group(1), kind, match.start(1), match.end(1)))
    for match in _hyphenated(text):
        if in_prose(text, match.start()):
            found.append(Mention(match.group(0), PROSE, match.start(), match.end()))
    related = [Mention(name, RELATED, at, at + len(name)) for name, at in related_skills(text)]
    if related:
        listed = {(m.start, m.end) for m in related}
        found = [m for m in found if (m.start, m.end) not in listed] + related
    own = own_name_span(text)
    if own is not None:
        found = [m for m in found if not own[0] <= m.start < own[1]]
    found.sort(key=lambda m: (m.start, m.end))
    return _outside_urls(text, found) if "://" in text else found


def _outside_urls(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions not inside a URL (`https://example.com/?q=pdf-forms`)."""
    urls = _urls(text)
    starts = [start for start, _ in urls]
    kept = []
    for m in found:
        i = bisect.bisect_right(starts, m.start) - 1
        if i < 0 or m.start >= urls[i][1]:
            kept.append(m)
    return kept


def _urls(text: str) -> list[tuple[int, int]]:
    """(start, end) of every bare URL of `text` (a scheme, `://`, then no space or quote)."""
    found: list[tuple[int, int]] = []
    at = text.find("://")
    while at != -1:
        start = at
        while start and (text[start - 1].isalnum() or text[start - 1] in "+.-"):
            start -= 1
        match = _URL_REST.match(text, at + 3)
        end = match.end() if match is not None else at + 3
        if start < at:
            found.append((start, end))
        at = text.find("://", max(end, at + 3))
    return found


def known_name(kind: str, token: str, names: Collection[str], any_prefixed: bool) -> str:
    """The skill name a candidate is ("" for none): the token itself, or for the prefixed
    forms the token without a sentence's full stop; with `any_prefixed`, any `skill:` token."""
    if token in names:
        return token
    if kind not in _PREFIX_KINDS:
        return ""
    return _known(token, names, any_prefixed and kind in EXPLICIT)


_PREFIX_KINDS = frozenset({SKILL_PREFIX, SLASH, CODEX})


def is_prose_name(name: str) -> bool:
    """Whether `name`, written in prose, is a mention (a hyphenated word)."""
    return _PROSE.fullmatch(name) is not None


def _hyphenated(text: str) -> Iterator[re.Match[str]]:
    """The hyphenated words of `text` (_PROSE), found from its hyphens: a regex tried at
    every position of every body costs more than the rest of the scan together."""
    at, done = text.find("-"), 0
    while at != -1:
        start = at
        while start > done and (text[start - 1].isalnum() or text[start - 1] == "-"):
            start -= 1
        match = _PROSE.match(text, start) if start < at else None
        if match is not None:
            yield match
        done = match.end() if match is not None else at + 1
        at = text.find("-", max(done, at + 1))


def _known(token: str, names: Collection[str], anything: bool) -> str:
    """The name a token is (a sentence's full stop left off), or ""."""
    for candidate in (token, token.rstrip(".-")):
        if candidate in names:
            return candidate
    return token.rstrip(".-") if anything else ""


def line_finder(text: str) -> Callable[[int], int]:
    """offset -> 1-based line of `text`; the newlines are listed only once a text has many
    mentions (most have a few, and listing every body's newlines costs more)."""
    newlines: list[int] = []
    calls = 0

    def line_of(at: int) -> int:
        nonlocal calls
        calls += 1
        if calls < 8:
            return text.count("\n", 0, at) + 1
        if not newlines:
            newlines.extend(m.start() for m in re.finditer("\n", text))
        return bisect.bisect_left(newlines, at) + 1

    return line_of


def non_overlapping(mentions: list[Mention]) -> Iterator[Mention]:
    """The mentions in order, dropping any that overlaps one before it."""
    end = -1
    for m in sorted(mentions, key=lambda m: (m.start, -m.end)):
        if m.start >= end:
            end = m.end
            yield m

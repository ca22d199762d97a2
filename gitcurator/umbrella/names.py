"""Is a proposed umbrella name class-level, or a session artifact? (pure)

An umbrella is what a maintainer would name once for a class of tasks. Agents name skills
after the session that made them (`fix-issue-4211`, `debug-ci-2026-03-02`, `tmp-pdf-test`);
such a name as an umbrella would attract every later skill of that session's kind and mean
nothing to the next reader.
"""

from __future__ import annotations

import re
import unicodedata

from gitcurator.skills.document import is_skipped_component
from gitcurator.skills.frontmatter import name_messages

# Leading words that mark a one-off: the session's verb, not the class of task.
ONE_OFF_PREFIXES = frozenset(
    """
    fix hotfix debug tmp temp wip test tests scratch draft attempt try todo quick old new copy
    session my
    """.split()  # noqa: SIM905
)
# Trailing words that mark a version or a copy of something else.
ONE_OFF_SUFFIXES = frozenset("copy old new final tmp temp wip draft bak backup v2 v3".split())  # noqa: SIM905
# Words that point at a ticket when a number follows (`issue-4211`, `pr-88`); alone they
# are subjects (`jira-automation`, `pr-review`).
TICKET_WORDS = frozenset("issue issues pr prs ticket jira gh".split())  # noqa: SIM905

_DIGITS = re.compile(r"\d")
_DATE = re.compile(r"(?:19|20)\d{2}(?:-?\d{2}){0,2}")
_VERSIONED = re.compile(r"v\d+")


def umbrella_name_problem(name: str) -> str | None:
    """Why `name` cannot be an umbrella's name (None: it can)."""
    messages = name_messages(name, name)
    if messages:
        return messages[0]
    if unicodedata.normalize("NFKC", name) != name:
        return f"'{name}' is not in Unicode NFKC form: write it as it would be typed"
    if is_skipped_component(name):
        return f"'{name}' is a folder name skills are never looked for in"
    words = name.split("-")
    for i, word in enumerate(words):
        if word in TICKET_WORDS and i + 1 < len(words) and words[i + 1].isdigit():
            ticket = f"{word}-{words[i + 1]}"
            return f"'{name}' names a ticket ({ticket}): name the class of task instead"
        if _DATE.fullmatch(word) or (len(_DIGITS.findall(word)) >= 3):
            return f"'{name}' holds a date or a number ({word}): name the class of task instead"
    if words[0] in ONE_OFF_PREFIXES:
        return f"'{name}' starts with '{words[0]}-', the mark of a one-off session skill"
    if len(words) > 1 and (words[-1] in ONE_OFF_SUFFIXES or _VERSIONED.fullmatch(words[-1])):
        return f"'{name}' ends with '-{words[-1]}', the mark of a copy or a version"
    return None

"""The trailer vocabulary: every key gitcurator writes into a commit message, and the parser.

Commit messages are gitcurator's audit log, so the keys are a contract (README, SPEC §4):
tools grep them and `gitcurator log` reads nothing else. Every writer builds its block with
`trailer_block`, every reader parses with `trailers`; no other module spells a key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

RUN = "Curator-Run"
REPORT = "Curator-Report"
MERGE = "Curator-Merge"
ROLLBACK = "Curator-Rollback"
REVERTS = "Curator-Reverts"
ARCHIVED = "Curator-Archived"
ABSORBED = "Curator-Absorbed-Into"
UMBRELLA = "Curator-Umbrella"
RESTORED = "Curator-Restored"
MANUAL = "Curator-Manual"
PURGED = "Curator-Purged"
IMPORT = "Curator-Import"
SKILL_ADDED = "Skill-Added"
SKILL_EDITED = "Skill-Edited"
SKILL_REMOVED = "Skill-Removed"
# A skill taken from upstream (`add`, `update`): its name, source URL, commit, path and ref.
SKILL_SOURCE = "Skill-Source"
# The run of `update` a commit belongs to (its review branch is update/<run id>).
UPDATE_RUN = "Update-Run"
# A notes commit names the journal segments it folded, so a crash between the notes commit
# and deleting the segment never counts its events twice.
FOLDED_SEGMENT = "Folded-Segment"
# The branches a pass writes (curator/<run id>), named in its trailers' messages and traded
# by `sync`; here, not in audit.passes, so sync need not import the pass-reading code.
BRANCH_PREFIX = "curator/"

# git's trailer keys are alphanumerics and hyphens; spaces may precede the colon.
_TRAILER_LINE = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)")
# Lines git itself adds to a trailer block without being `Key: value`.
_GIT_GENERATED = ("(cherry picked from commit ",)


def trailer(key: str, value: str) -> str:
    """One `Key: value` line."""
    return f"{key}: {value}"


def trailer_block(pairs: Iterable[tuple[str, str]]) -> str:
    """`Key: value` lines, one per pair, in order, joined by newlines (no trailing newline)."""
    return "\n".join(trailer(key, value) for key, value in pairs)


def trailers(message: str) -> dict[str, list[str]]:
    """The git-style trailers of a message's last paragraph: key (as written) -> values.

    As in git, the subject paragraph never holds trailers, and the last paragraph is a trailer
    block only if each of its lines is `Key: value`, a continuation (leading whitespace) or a
    line git adds itself (`(cherry picked from commit ...)`).
    """
    paragraphs = _paragraphs(message)
    if len(paragraphs) < 2:
        return {}
    found: dict[str, list[str]] = {}
    key: str | None = None
    for line in paragraphs[-1]:
        if line[:1] in (" ", "\t") and key is not None:
            found[key][-1] = f"{found[key][-1]} {line.strip()}".strip()
            continue
        if line.startswith(_GIT_GENERATED):
            key = None
            continue
        match = _TRAILER_LINE.fullmatch(line)
        if match is None:
            return {}
        key = match.group(1)
        found.setdefault(key, []).append(match.group(2).strip())
    return found


def _paragraphs(message: str) -> list[list[str]]:
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for line in message.replace("\r\n", "\n").split("\n"):
        if line.strip():
            current.append(line.rstrip())
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    return paragraphs

"""The skills the umbrella pass may merge, read from one commit's files (no dulwich here:
blobs come through the `read` callable)."""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER, SkillParseError, parse_skill_md
from gitcurator.umbrella.eligibility import ARCHIVED, UNREADABLE, left_out_because

BlobId = TypeVar("BlobId", bound=bytes)
Value = TypeVar("Value")


@dataclass(frozen=True, slots=True)
class Candidate:
    """One skill the umbrella pass may merge: what clustering and the prompt need of it."""

    name: str
    path: str
    description: str
    body: str
    support_files: tuple[str, ...] = ()
    use_count: int = 0
    # Parsed once when the candidate is loaded; the umbrella pass keeps a host's other keys.
    frontmatter: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Candidates:
    """The skills the umbrella pass may merge, and how many others were left out and why."""

    candidates: list[Candidate]
    left_out: dict[str, int]
    warnings: list[str]
    now: datetime


def select_candidates(
    rows: Sequence[SkillRow],
    files: Mapping[str, BlobId],
    read: Callable[[BlobId], bytes],
    policy: CuratorPolicy,
    now: datetime,
    warnings: Sequence[str] = (),
) -> Candidates:
    """Every eligible skill with its SKILL.md, support files and usage.

    `files` maps every path of the commit to its blob id, and `read` loads a blob.
    """
    eligible, left_out = _eligible(rows, policy, now)
    by_folder = files_by_folder(files, {r.path for r in eligible})
    candidates: list[Candidate] = []
    found = list(warnings)
    for row in eligible:
        candidate = _candidate(row, by_folder.get(row.path, {}), read)
        if isinstance(candidate, str):
            found.append(candidate)
            left_out[UNREADABLE] += 1
        else:
            candidates.append(candidate)
    return Candidates(candidates, dict(sorted(left_out.items())), found, now)


def _eligible(
    rows: Sequence[SkillRow], policy: CuratorPolicy, now: datetime
) -> tuple[list[SkillRow], Counter[str]]:
    eligible: list[SkillRow] = []
    left_out: Counter[str] = Counter()
    for row in rows:
        reason = left_out_because(row, policy, now)
        if reason is None:
            eligible.append(row)
        elif reason != ARCHIVED:  # archived skills are no longer in the library at all
            left_out[reason] += 1
    return eligible, left_out


def files_by_folder(files: Mapping[str, Value], folders: set[str]) -> dict[str, dict[str, Value]]:
    """folder -> {path inside the folder: value} for each of `folders`, in one pass."""
    found: dict[str, dict[str, Value]] = {}
    for path, sha in files.items():
        # Walk up from the file: the first folder that is a candidate owns it (skills do not
        # nest, so there is at most one).
        parent = posixpath.dirname(path)
        while parent:
            if parent in folders:
                found.setdefault(parent, {})[path[len(parent) + 1 :]] = sha
                break
            parent = posixpath.dirname(parent)
    return found


def _candidate(
    row: SkillRow, files: Mapping[str, BlobId], read: Callable[[BlobId], bytes]
) -> Candidate | str:
    """The row as a Candidate, or a warning naming the SKILL.md that cannot be read."""
    skill_md = SKILL_FILE if SKILL_FILE in files else SKILL_FILE_LOWER
    try:
        doc = parse_skill_md(read(files[skill_md]))
    except (KeyError, SkillParseError) as exc:
        why = exc.message if isinstance(exc, SkillParseError) else "is missing"
        return (
            f"{row.path}/{skill_md} {why}; left out of the clusters "
            f"(see `gitcurator validate {row.path}`)"
        )
    return Candidate(
        name=row.name,
        path=row.path,
        description=doc.description or "",
        body=doc.body,
        support_files=tuple(sorted(p for p in files if p != skill_md)),
        use_count=row.use_count,
        frontmatter=doc.frontmatter,
    )

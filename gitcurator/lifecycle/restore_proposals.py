"""Where an archived skill goes back to, and which archived skills a pass proposes back (pure).

`gitcurator restore` and the pass move a skill out of `.archive/` the same way: to its
category folder under its own name (`x` for a copy `.archive/x-2` whose SKILL.md says `x`).
A pass proposes every archived skill wanted (used while archived: `telemetry.records.Wanted`)
at least `curator.restore_after_wanted` times since it was archived, unless a live skill has
its name, another archived copy has it too, its folder is taken, or `protect:` lists it. The
merge-time branch check asks the same question of the default branch as it stands
(`restorable`), so a branch restores only what a pass would.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from gitcurator.audit import trailers
from gitcurator.config import Config
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.render import name_arg, plural
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER, SkillParseError, parse_skill_md

BlobId = TypeVar("BlobId", bound=bytes)

ARCHIVED = "archived"
# The pass (and `archive`) suffix a folder whose name .archive/ already holds: x-2, x-3, ...
COPY = re.compile(r"(.+)-([2-9]|[1-9][0-9]+)")


@dataclass(frozen=True, slots=True)
class RestoreProposal:
    """One archived skill to bring back: from `source` (under .archive/) to `target`."""

    name: str  # the skill's name once restored
    record: str  # the record its wants were counted on (the archived folder's name)
    source: str
    target: str
    wanted: int
    archived_at: str | None

    def to_json(self, threshold: int) -> dict[str, Any]:
        """The restore as run.json lists it."""
        return {
            "skill": self.name,
            "from": self.source,
            "to": self.target,
            "wanted": self.wanted,
            "archived_at": self.archived_at,
            "reason": wanted_reason(self.wanted, threshold),
        }


def wanted_reason(wanted: int, threshold: int) -> str:
    """Why a skill is proposed back, in words."""
    return (
        f"wanted {plural(wanted, 'time')} since it was archived "
        f"(curator.restore_after_wanted: {threshold})"
    )


def restored_name(dirname: str, frontmatter_name: str | None) -> str:
    """The name an archived folder holds: its own, or for a copy `x-2` whose SKILL.md names
    `x`, that `x`."""
    match = COPY.fullmatch(dirname)
    return match.group(1) if match and frontmatter_name == match.group(1) else dirname


def restore_target(source: str, name: str, skills_dir: str) -> str:
    """Where the archived folder `source` goes back to: its category folder, under `name`."""
    prefix = skills_dir.strip("/") + "/" if skills_dir.strip("/") else ""
    inside = source[len(prefix) :].split("/")[1:]  # drop `.archive`
    category = "/".join(inside[:-1])
    return f"{prefix}{category + '/' if category else ''}{name}"


def is_taken(paths: Iterable[str], folder: str) -> bool:
    """Whether a tree with these file `paths` already holds `folder` (or a file of that path)."""
    return any(p == folder or p.startswith(folder + "/") for p in paths)


def propose_restores(
    rows: Sequence[SkillRow],
    paths: Iterable[str],
    frontmatter_name: Callable[[str], str | None],
    skills_dir: str,
    threshold: int,
) -> list[RestoreProposal]:
    """The archived skills wanted at least `threshold` times since archived, each with its
    move, in name order; `frontmatter_name(folder)` reads an archived SKILL.md's `name:`."""
    live = {r.name for r in rows if r.state != ARCHIVED}
    files = list(paths)
    taken: set[str] = set()
    found: list[RestoreProposal] = []
    names = {r.path: _name_of(r.path, frontmatter_name) for r in rows if r.state == ARCHIVED}
    # Two archived copies of one name (`x`, and `x-2` archived later): a want of `x` lands on
    # the record `x` whichever copy is the newer, so which one is wanted is unknown.
    copies = Counter(names.values())
    # Filtered before sorting: at 10,000 rows the sort's key alone cost a warm pass 15 ms.
    wanted = [
        r for r in rows if r.state == ARCHIVED and r.wanted_count >= threshold and not r.protected
    ]
    for row in sorted(wanted, key=lambda r: (-r.wanted_count, r.name, r.path)):
        name = names[row.path]
        target = restore_target(row.path, name, skills_dir)
        if name in live or copies[name] > 1 or target in taken or is_taken(files, target):
            continue  # `restore` refuses these too; the person decides
        taken.add(target)
        found.append(
            RestoreProposal(name, row.name, row.path, target, row.wanted_count, row.archived_at)
        )
    return sorted(found, key=lambda p: p.name)


def _name_of(path: str, frontmatter_name: Callable[[str], str | None]) -> str:
    dirname = posixpath.basename(path)
    return restored_name(dirname, frontmatter_name(path) if COPY.fullmatch(dirname) else None)


def frontmatter_names(
    entries: Mapping[str, tuple[BlobId, int]], read: Callable[[BlobId], bytes]
) -> Callable[[str], str | None]:
    """`frontmatter_name` for propose_restores: a folder's SKILL.md `name:` in a tree's
    `entries` (None when it has none or does not parse)."""

    def name_of(folder: str) -> str | None:
        for md in (SKILL_FILE, SKILL_FILE_LOWER):
            entry = entries.get(f"{folder}/{md}")
            if entry is not None:
                try:
                    return parse_skill_md(read(entry[0])).name
                except SkillParseError:
                    return None
        return None

    return name_of


def planned_restores(
    rows: Sequence[SkillRow],
    entries: Mapping[str, tuple[BlobId, int]],
    read: Callable[[BlobId], bytes],
    config: Config,
) -> list[RestoreProposal]:
    """propose_restores on a tree's `entries` with the config's library and threshold: what a
    pass proposes, and what the merge-time check accepts."""
    return propose_restores(
        rows,
        entries,
        frontmatter_names(entries, read),
        config.skills_dir,
        config.curator.restore_after_wanted,
    )


def restored_counts(after: Mapping[str, int], restored: int) -> dict[str, int]:
    """run.json's counts after a pass, with `restored` archived skills active again."""
    counts = dict(after)
    counts[ARCHIVED] = counts.get(ARCHIVED, 0) - restored
    counts["active"] = counts.get("active", 0) + restored
    return {state: n for state, n in sorted(counts.items()) if n or state in after}


def restore_message(run_id: str, restores: Sequence[RestoreProposal], threshold: int) -> str:
    """The pass's restore commit: each skill, where it goes back to and why, trailers."""
    subject = f"curator: restore {plural(len(restores), 'wanted skill')}"
    body = [
        f"- {p.name} ({p.source} -> {p.target}): {wanted_reason(p.wanted, threshold)}"
        for p in restores
    ]
    lines = [f"{trailers.RUN}: {run_id}"] + [f"{trailers.RESTORED}: {p.name}" for p in restores]
    return "\n".join([subject, "", *body, "", *lines]) + "\n"


def restore_lines(restores: Sequence[Mapping[str, Any]]) -> list[str]:
    """REPORT.md's section of run.json's restores (none: no lines)."""
    if not restores:
        return []
    lines = ["", f"## Proposed back ({len(restores)})", ""]
    lines += [
        f"- **{r['skill']}** (`{r['from']}` → `{r['to']}`): {r['reason']}; merging this "
        "branch restores it (`gitcurator restore "
        f"{name_arg(str(r['skill']))}` does the same by hand)"
        for r in restores
    ]
    return lines

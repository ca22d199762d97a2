"""The audit trail, read from commit trailers alone (pure), so a fresh clone tells it whole.

Every commit gitcurator writes says what it did in trailers: a pass's commits carry
`Curator-Run:` (the report commit also `Curator-Report:`), a merge `Curator-Merge:`, a
rollback `Curator-Rollback:` with `Curator-Reverts:` per undone commit, `restore`
`Curator-Restored:`, a manual `archive` `Curator-Manual: archive`, `purge` `Curator-Purged:`,
an import `Curator-Import:`, `add` from upstream `Skill-Source:` per skill, `update` (and
the merge of its review branch) `Update-Run:` beside them. This module groups such commits
into entries: one per pass, one per other act.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gitcurator.audit.trailers import (
    ABSORBED,
    ARCHIVED,
    IMPORT,
    MANUAL,
    MERGE,
    PURGED,
    REPORT,
    RESTORED,
    REVERTS,
    ROLLBACK,
    RUN,
    SKILL_SOURCE,
    UPDATE_RUN,
    trailers,
)

PENDING, MERGED, ROLLED_BACK, PARTLY = (
    "pending review",
    "merged",
    "rolled back",
    "partly rolled back",
)


@dataclass(frozen=True, slots=True)
class LoggedCommit:
    """A commit as the audit trail sees it. `branch` names the curator branch a commit is only
    on (a pass pending review); None means it is in the default branch's history."""

    commit: str
    time: str
    message: str
    branch: str | None = None

    @property
    def subject(self) -> str:
        return self.message.strip().split("\n", 1)[0]

    def values(self, key: str) -> list[str]:
        """The values of trailer `key` (compared without case, as git does)."""
        return [
            v
            for k, vs in trailers(self.message).items()
            if k.casefold() == key.casefold()
            for v in vs
        ]

    def first(self, key: str) -> str | None:
        found = self.values(key)
        return found[0] if found else None


@dataclass(frozen=True, slots=True)
class Pass:
    """A curator pass as history tells it: its commits, newest first."""

    run_id: str
    commits: tuple[LoggedCommit, ...]
    branch: str | None
    merge: LoggedCommit | None = None  # the merge commit (None: pending or fast-forwarded)
    reverted: frozenset[str] = field(default_factory=frozenset)

    @property
    def skill_commits(self) -> list[LoggedCommit]:
        """The commits that change skills (all but the report), newest first."""
        return [c for c in self.commits if not c.values(REPORT)]

    @property
    def archived(self) -> list[str]:
        return [n for c in reversed(self.commits) for n in c.values(ARCHIVED)]

    @property
    def absorbed(self) -> list[tuple[str, str]]:
        """(absorbed skill, umbrella) pairs from `Curator-Absorbed-Into: a -> b` trailers."""
        pairs = []
        for c in reversed(self.commits):
            for value in c.values(ABSORBED):
                name, _, umbrella = value.partition("->")
                pairs.append((name.strip(), umbrella.strip()))
        return pairs

    @property
    def status(self) -> str:
        if self.branch is not None:
            return PENDING
        undone = [c for c in self.skill_commits if c.commit in self.reverted]
        if undone and len(undone) == len(self.skill_commits):
            return ROLLED_BACK
        return PARTLY if undone else MERGED

    @property
    def time(self) -> str:
        return self.commits[0].time


def passes(commits: Iterable[LoggedCommit]) -> list[Pass]:
    """Every pass among `commits` (given parents before children), oldest first, with its
    merge and rollbacks."""
    groups: dict[str, list[LoggedCommit]] = {}
    merges: dict[str, LoggedCommit] = {}
    reverted: dict[str, set[str]] = {}
    for c in commits:
        run = c.first(RUN)
        if run is None:
            continue
        if c.values(MERGE):
            merges.setdefault(run, c)
        elif c.values(ROLLBACK):
            undone = reverted.setdefault(run, set())
            undone.update(c.values(REVERTS))
        else:
            groups.setdefault(run, []).append(c)
    found = []
    for run, group in groups.items():
        group.reverse()  # newest first: commit times may tie or run backwards
        branch = group[0].branch if all(c.branch for c in group) else None
        found.append(
            Pass(run, tuple(group), branch, merges.get(run), frozenset(reverted.get(run, ())))
        )
    return sorted(found, key=lambda p: (p.time, p.run_id))


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the audit trail."""

    kind: str  # pass, merge, rollback, restore, archive, purge, import, add, update
    time: str
    commits: tuple[str, ...]  # newest first
    subject: str
    run_id: str | None = None
    skills: tuple[str, ...] = ()
    status: str | None = None  # passes only
    branch: str | None = None  # passes pending review
    report: str | None = None  # passes only

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "kind": self.kind,
            "time": self.time,
            "run_id": self.run_id,
            "skills": list(self.skills),
            "commits": list(self.commits),
            "subject": self.subject,
        }
        if self.kind == "pass":
            doc.update(status=self.status, branch=self.branch, report=self.report)
        return doc


def audit_trail(commits: Sequence[LoggedCommit]) -> list[Entry]:
    """The entries of `commits` (given oldest first), newest first."""
    entries: list[tuple[str, int, Entry]] = []
    position = {c.commit: i for i, c in enumerate(commits)}
    for p in passes(commits):
        report = next((v for c in p.commits for v in c.values(REPORT)), None)
        skills = tuple(p.archived) + tuple(f"{a} -> {u}" for a, u in p.absorbed)
        status = p.status
        if status == MERGED and p.merge is None:
            status = f"{MERGED} (fast-forward)"
        entry = Entry(
            "pass",
            p.time,
            tuple(c.commit for c in p.commits),
            p.commits[-1].subject,
            p.run_id,
            skills,
            status,
            p.branch,
            report,
        )
        entries.append((p.time, position[p.commits[0].commit], entry))
    for i, c in enumerate(commits):
        single = _single(c)
        if single is not None:
            entries.append((c.time, i, single))
    entries.sort(key=lambda e: (e[0], e[1]), reverse=True)
    return [e for _, _, e in entries]


def _single(c: LoggedCommit) -> Entry | None:
    """The entry of a commit that is an act of its own (not part of a pass)."""
    run = c.first(RUN)
    made = (c.time, (c.commit,), c.subject)
    if c.values(MERGE):
        return Entry("merge", *made, run_id=run)
    if c.values(ROLLBACK):
        return Entry("rollback", *made, run_id=run, skills=tuple(c.values(RESTORED)))
    if run is not None:
        return None  # a pass's own commit: its pass has the entry
    if c.values(PURGED):
        return Entry("purge", *made, skills=tuple(c.values(PURGED)))
    if any(v.strip().casefold() == "archive" for v in c.values(MANUAL)):
        return Entry("archive", *made, skills=tuple(c.values(ARCHIVED)))
    if c.values(RESTORED):
        return Entry("restore", *made, skills=tuple(c.values(RESTORED)))
    if c.values(IMPORT):
        return Entry("import", *made)
    sources = c.values(SKILL_SOURCE)
    if sources:
        # The value starts with the skill's name (`NAME URL@COMMIT path=...`).
        names = tuple(v.split(" ", 1)[0] for v in sources)
        update = c.first(UPDATE_RUN)
        return Entry("update" if update else "add", *made, run_id=update, skills=names)
    return None

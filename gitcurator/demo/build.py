"""Build the demo's library: write, commit, pin and use the sample skills, dated back from now.

The history is made with gitcurator's own commands (`init`, `commit`, `pin`) and recorder, as a
person and an agent would have made it; their results are composed, not shown, except for
their warnings.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from gitcurator.demo import catalogue as sample
from gitcurator.demo.timeline import Usage, commits, usage
from gitcurator.errors import EXIT_OK
from gitcurator.output import Result
from gitcurator.timeutil import format_time

# Who commits in the demo's history: the agent's learning loop, or the person.
_PEOPLE = {
    sample.AGENT: ("demo agent", "agent@demo.invalid"),
    sample.USER: ("demo user", "you@demo.invalid"),
    sample.HUB: ("demo user", "you@demo.invalid"),
}
_GIT_ENV = (
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
    "GIT_COMMITTER_DATE",
)


@dataclass(frozen=True, slots=True)
class Built:
    commits: int
    events: int
    notes: tuple[str, ...]  # the warnings of the commands that built it


class StepFailed(Exception):
    """A command that builds the library did not succeed; its result says why."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.code)
        self.result = result


def build(target: Path, now: datetime) -> Built:
    """Write, commit, pin and use the sample skills in `target`, dated back from `now`;
    StepFailed if a command refused."""
    from gitcurator.commands.commit import commit
    from gitcurator.commands.init import init
    from gitcurator.commands.pin import pin

    notes: list[str] = []

    def step(result: Result) -> None:
        if result.code != EXIT_OK:
            raise StepFailed(result)
        notes.extend(result.notes)

    history = commits(now)
    first, rest = history[0], history[1:]
    with _dated(first.origin, first.at):
        _write(target, first.add)
        step(init(target, quiet=True))  # the person's own skills start the repository
    for change in rest:
        with _dated(change.origin, change.at):
            _write(target, change.add)
            _write(target, change.patch, patched=True)
            step(commit(target, change.message, change.origin))
    with _dated(sample.USER, now - timedelta(days=1)):
        step(pin(target, sample.PINNED))  # what a new user does before the first pass
    events = usage(now)
    _record(target, events)
    return Built(len(history), len(events), tuple(notes))


def _write(target: Path, skills: Sequence[sample.DemoSkill], patched: bool = False) -> None:
    for skill in skills:
        folder = target / skill.folder
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(sample.skill_md(skill, patched), encoding="utf-8")
        for rel, text in skill.files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if rel.startswith("scripts/"):
                path.chmod(0o755)


def _record(target: Path, events: Sequence[Usage]) -> None:
    """Record the usage the way an agent does, then fold it into the notes."""
    from gitcurator.library import open_repo
    from gitcurator.telemetry import ledger
    from gitcurator.telemetry.recording import record

    for event in events:
        record(event.kind, [event.name], at=format_time(event.at), repo=target)
    with open_repo(target) as repo:
        ledger.flush(repo.store)


@contextlib.contextmanager
def _dated(origin: str, at: datetime) -> Iterator[None]:
    """Commits made inside carry `at` and the identity of whoever `origin` says made them
    (gitcurator's commits honour git's variables, as git's own do)."""
    saved = {var: os.environ.get(var) for var in _GIT_ENV}
    name, email = _PEOPLE[origin]
    stamp = format_time(at)
    os.environ.update(
        GIT_AUTHOR_NAME=name,
        GIT_AUTHOR_EMAIL=email,
        GIT_AUTHOR_DATE=stamp,
        GIT_COMMITTER_NAME=name,
        GIT_COMMITTER_EMAIL=email,
        GIT_COMMITTER_DATE=stamp,
    )
    try:
        yield
    finally:
        for var, value in saved.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value

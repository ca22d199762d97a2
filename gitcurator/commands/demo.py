"""`gitcurator demo`: build the sample library with its history and usage, then run a pass."""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from gitcurator.demo import catalogue as sample
from gitcurator.errors import EXIT_OK, CuratorError
from gitcurator.render import plural
from gitcurator.timeutil import format_time, moment_of

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


def demo(folder: Path | None, *, now: str | None) -> int:
    """Build the sample library in `folder` (default: a new temporary folder), run a pass."""
    moment = moment_of(now)
    target, created = _target(folder)
    try:
        built = build(target, moment)
    except BaseException:
        _clear(target, created)  # leave the folder as we found it
        raise
    print(_summary(target, built))
    from gitcurator.commands.run import run
    from gitcurator.output import emit

    stamp = format_time(moment)
    print(f"\nrunning a curator pass as of {stamp}:\n")
    code = emit(run(target, now=stamp, dry_run=False, consolidate=False))
    if code != EXIT_OK:
        print(f"\nthe pass failed (see above); the sample library stays in {target}")
        return code
    print(_next_steps(target, _newest_run(target), now))
    return EXIT_OK


def _target(folder: Path | None) -> tuple[Path, bool]:
    """The folder to build in and whether we created it; refuses one that holds anything."""
    if folder is None:
        return Path(tempfile.mkdtemp(prefix="gitcurator-demo-")), True
    folder = folder.absolute()
    if folder.exists():
        if not folder.is_dir():
            raise CuratorError(f"{folder} is a file; give a new or empty folder for the demo")
        if any(folder.iterdir()):
            raise CuratorError(
                f"{folder} is not empty; give a new or empty folder for the demo "
                "(or none, for a temporary one)"
            )
        return folder, False
    folder.mkdir(parents=True)
    return folder, True


def _clear(target: Path, created: bool) -> None:
    if created:
        shutil.rmtree(target, ignore_errors=True)
        return
    for child in target.iterdir():  # it was empty: everything in it is ours
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def build(target: Path, now: datetime) -> Built:
    """Write, commit, pin and use the sample skills in `target`, dated back from `now`."""
    from gitcurator.commands.commit import commit
    from gitcurator.commands.init import init
    from gitcurator.commands.provenance import pin

    history = sample.commits(now)
    first, rest = history[0], history[1:]
    with _dated(first.origin, first.at):
        _write(target, first.add)
        init(target, quiet=True)  # the person's own skills start the repository
    for step in rest:
        with _dated(step.origin, step.at), _quiet():
            _write(target, step.add)
            _write(target, step.patch, patched=True)
            commit(target, step.message, step.origin)
    with _dated(sample.USER, now - timedelta(days=1)), _quiet():
        pin(target, sample.PINNED)  # what a new user does before the first pass
    events = sample.usage(now)
    _record(target, events)
    return Built(len(history), len(events))


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


def _record(target: Path, events: Sequence[sample.Usage]) -> None:
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


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Hide the progress lines of the commands the demo replays (their errors still show)."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def _summary(target: Path, built: Built) -> str:
    by_origin = {o: sum(s.origin == o for s in sample.SKILLS) for o in _PEOPLE}
    return (
        f"built a sample skill library in {target}\n"
        f"  {plural(len(sample.SKILLS), 'skill')}: {by_origin[sample.AGENT]} written by an "
        f"agent, {by_origin[sample.USER]} by you, {by_origin[sample.HUB]} from a skills hub; "
        f"{sample.PINNED} pinned\n"
        f"  {plural(built.commits, 'commit')} and {plural(built.events, 'usage event')} "
        "over six months"
    )


def _newest_run(target: Path) -> str | None:
    from gitcurator.store import Store
    from gitcurator.store.branches import branch_names

    with Store.discover(target) as store:
        runs = sorted(branch_names(store, "curator/"))
    return runs[-1].removeprefix("curator/") if runs else None


def _next_steps(target: Path, run_id: str | None, now: str | None) -> str:
    where = _quote(target)
    run = run_id or "RUN"
    replay = f" --now {now}" if now else ""  # judge states as of the demo's time
    report = f"curator/{run}:.curator/runs/{run}/REPORT.md"
    steps = [
        (f"git -C {where} show {report}", "the pass's full report"),
        (f"git -C {where} log --oneline --all", "the history: skills learned, notes, the pass"),
        (f"gitcurator -C {where} list{replay}", "every skill with state, origin, pin, usage"),
        (f"gitcurator -C {where} merge", "accept the pass into the main branch"),
        (f"gitcurator -C {where} rollback {run}", "and undo it again"),
        (
            f"gitcurator -C {where} clusters{replay}",
            "siblings `run --consolidate` would fold (no model needed)",
        ),
    ]
    width = max(len(command) for command, _ in steps)
    head = f"review branch: curator/{run}" if run_id else "the pass made no review branch"
    return "\n".join(
        ["", head, "", "next, try:"]
        + [f"  {command.ljust(width)}  # {why}" for command, why in steps]
    )


def _quote(path: Path) -> str:
    return shlex.quote(str(path))

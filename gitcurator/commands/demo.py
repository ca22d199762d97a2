"""`gitcurator demo`: build the sample library with its history and usage, then run a pass."""

from __future__ import annotations

import shlex
import shutil
import tempfile
from pathlib import Path

from gitcurator.demo import catalogue as sample
from gitcurator.demo.build import Built, StepFailed, build
from gitcurator.errors import EXIT_OK, CuratorError
from gitcurator.output import Result, failed, lines_of
from gitcurator.render import plural
from gitcurator.timeutil import format_time, moment_of


def demo(folder: Path | None, *, now: str | None) -> Result:
    """Build the sample library in `folder` (default: a new temporary folder), run a pass."""
    moment = moment_of(now)
    target, created = _target(folder)
    try:
        built = build(target, moment)
    except StepFailed as exc:
        _clear(target, created)
        return exc.result
    except BaseException:
        _clear(target, created)  # leave the folder as we found it
        raise
    stamp = format_time(moment)
    said = f"{_summary(target, built)}\n\nrunning a curator pass as of {stamp}:\n\n"
    from gitcurator.commands.run import run

    try:
        ran = run(target, now=stamp, dry_run=False, consolidate=False)
    except CuratorError as exc:
        return failed(str(exc), code=exc.exit_code, text=said, notes=built.notes)
    said += lines_of(ran.text)
    if ran.code != EXIT_OK:
        said += f"\nthe pass failed (see above); the sample library stays in {target}"
        return Result(ran.code, text=said, notes=built.notes + ran.notes)
    said += _next_steps(target, _newest_run(target), now)
    return Result(text=said, notes=built.notes + ran.notes)


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


def _summary(target: Path, built: Built) -> str:
    origins = (sample.AGENT, sample.USER, sample.HUB)
    by_origin = {o: sum(s.origin == o for s in sample.SKILLS) for o in origins}
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
    where = shlex.quote(str(target))
    run = run_id or "RUN"
    replay = f" --now {now}" if now else ""  # judge states as of the demo's time
    report = f"curator/{run}:.curator/runs/{run}/REPORT.md"
    steps = [
        (f"gitcurator -C {where} review", "the pass in one screen (--diff: what changes)"),
        (f"gitcurator -C {where} report --html", "the library's health page, for a browser"),
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

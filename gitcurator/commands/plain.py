"""A plain `flush`, `list`, `validate`, `sync` or `run`, parsed without click (entry.py asks
here after `record`'s fast path): anything else, or anything odd, is left to click, which
gives the same results with its usual messages."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from gitcurator.output import progress_drawn

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from gitcurator.output import Result

# `flush` as a hook or a schedule runs it, `list --json` and `validate` as scripts and
# editors do, `sync` as a schedule does: plain, they need no option parsing, and click with
# every command module costs 50-80 ms of processes that take 0.25-1 s.
_PLAIN = ("flush", "list", "validate", "sync")


def plain_command(args: list[str]) -> tuple[Callable[[], Result], bool] | None:
    """The command of a plain `flush`, `list`, `validate` or `sync` (`[-C PATH] CMD` with
    `--json` and `-C PATH`, each at most once), and whether it is `--json`, or of a plain
    `run` (plain_run); None for anything else, which click parses."""
    if "_GITCURATOR_COMPLETE" in os.environ:
        return None  # click's shell completion answers instead of the command
    if "run" in args[:3]:
        return plain_run(args)
    parsed = plain_options(args, _PLAIN, ("--json",), ("-C",))
    if parsed is None:
        return None
    name, start, seen = parsed
    as_json = "--json" in seen
    if name == "flush":
        from gitcurator.commands.flush import flush

        return (lambda: flush(start)), as_json
    if name == "list":
        from gitcurator.commands.list import list_skills

        return (lambda: list_skills(start, state=None, origin=None, now=None, as_json=as_json)), (
            as_json
        )
    if not as_json and progress_drawn():
        return None  # validate and sync draw their progress there: cli/progress's
    if name == "sync":
        from gitcurator.commands.sync import sync

        return (lambda: sync(start, "origin")), as_json
    from gitcurator.commands.validate import validate
    from gitcurator.progress import NO_PROGRESS

    def run() -> Result:
        return validate(
            start,
            (),
            strict=False,
            staged=False,
            as_json=as_json,
            quiet=False,
            progress=NO_PROGRESS,
        )

    return run, as_json


def plain_run(args: list[str]) -> tuple[Callable[[], Result], bool] | None:
    """The command of `[-C PATH] run` with any of `--json`, `--dry-run`, `--now T`, `-C PATH`
    (each once), when no progress is drawn (`--json`, or stderr is no terminal): what a
    schedule and a script run. None for anything else (help, `--consolidate`, `--now=T`, a
    value that looks like an option, a PATH that is a file), which click parses and answers
    with its usual messages."""
    parsed = plain_options(args, ("run",), ("--json", "--dry-run"), ("--now", "-C"))
    if parsed is None:
        return None
    _, start, seen = parsed
    as_json = "--json" in seen
    if not as_json and progress_drawn():
        return None  # a pass draws its progress there: cli/progress's
    now, dry_run = seen.get("--now"), "--dry-run" in seen

    def run() -> Result:
        from gitcurator.commands.run import run as run_pass

        return run_pass(start, now=now, dry_run=dry_run, consolidate=False)

    return run, as_json


def plain_options(
    args: list[str], names: tuple[str, ...], flags: tuple[str, ...], values: tuple[str, ...]
) -> tuple[str, Path, dict[str, str]] | None:
    """(command, start folder, options given) of `[-C PATH] NAME` followed by `flags` and
    `values` (options taking one value), each at most once; None for anything else (a
    repeat, `--opt=V`, a value that looks like an option, a -C that click would refuse),
    which click parses and answers with its usual messages."""
    rest, group_dir = list(args), None
    if rest[:1] == ["-C"] and len(rest) > 2:
        group_dir, rest = rest[1], rest[2:]
    if not rest or rest[0] not in names:
        return None
    seen: dict[str, str] = {}
    i = 1
    while i < len(rest):
        arg = rest[i]
        if arg in seen:
            return None
        if arg in flags:
            seen[arg], i = "", i + 1
        elif arg in values and i + 1 < len(rest) and rest[i + 1][:1] not in ("-", ""):
            seen[arg], i = rest[i + 1], i + 2
        else:
            return None
    if group_dir == "" or not all(_folder_click_takes(d) for d in (group_dir, seen.get("-C"))):
        return None
    from pathlib import Path

    here = seen.get("-C") or group_dir
    return rest[0], Path(here) if here is not None else Path.cwd(), seen


def _folder_click_takes(path: str | None) -> bool:
    """Whether click's `-C` (a readable path, not a file) takes `path`: else it refuses it
    by name, and the plain path leaves that to click."""
    if path is None or not os.path.exists(path):
        return True
    return os.path.isdir(path) and os.access(path, os.R_OK)

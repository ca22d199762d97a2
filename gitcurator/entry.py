"""The `gitcurator` executable: `record`, `hook` and a plain `flush`, `list`, `validate`,
`sync` or `run` take a fast path, the rest goes to the CLI.

Agents run `gitcurator record use NAME` on every skill load, so that command must not pay for
click, dulwich or PyYAML. Anything this parser does not recognise (help, odd flags) falls
through to the full click CLI, which gives the same results with the usual messages.
"""

from __future__ import annotations

import errno
import os
import sys

from gitcurator.error_handler import exit_process, guarded, stop_on_signals
from gitcurator.errors import EXIT_INTERRUPTED

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from gitcurator.output import Result


def parse_record(argv: list[str]) -> tuple[str, str, list[str], str | None] | None:
    """(repo, kind, names, at) of a plain `[-C PATH] record use|view NAME... [--at T]`; every
    argument after `--` is a name (`record use -- -21risk-automation`). The repo is a path
    string spelled as pathlib would (no pathlib import on the hot path)."""
    from gitcurator.telemetry.gitdir import pure_path

    repo: str | None = None
    args = list(argv)
    if args[:1] == ["-C"] and len(args) > 1:
        repo, args = pure_path(args[1]), args[2:]
    if args[:1] != ["record"] or len(args) < 3 or args[1] not in ("use", "view"):
        return None
    kind, rest = args[1], args[2:]
    names: list[str] = []
    at = None
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--":
            names += rest[i + 1 :]
            break
        if arg in ("--at", "-C") and i + 1 < len(rest):
            if arg == "--at":
                at = rest[i + 1]
            else:
                repo = pure_path(rest[i + 1])
            i += 2
            continue
        if arg.startswith("--at="):
            at = arg[len("--at=") :]
        elif arg.startswith("-"):
            return None
        else:
            names.append(arg)
        i += 1
    if not names:
        return None
    return repo or os.getcwd(), kind, names, at


def main() -> None:
    """Console-script entry point: exits the process with the command's code."""
    if "hook" in sys.argv[1:4]:
        # An agent's hook on every skill load: no click either, and never an exit code.
        from gitcurator.commands.hook import parse_args, run

        hook = parse_args(sys.argv[1:])
        if hook is not None:
            raise SystemExit(run(*hook))
    stop_on_signals()
    try:
        code = guarded(_command)
    except KeyboardInterrupt:
        # A second Ctrl-C while the first was being reported: no call here, a third could
        # land in it.
        code = EXIT_INTERRUPTED
    try:
        exit_process(code)
    except KeyboardInterrupt:
        exit_process(EXIT_INTERRUPTED)  # it landed before exit_process could ignore it


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
    if not as_json and _progress_drawn():
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
    if not as_json and _progress_drawn():
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


def _progress_drawn() -> bool:
    """Whether a command's progress is drawn (stderr is a terminal): cli/progress's."""
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


def _command() -> int:
    fast = parse_record(sys.argv[1:])
    if fast is not None:
        from gitcurator.commands.record import record_events

        return record_events(*fast)
    plain = plain_command(sys.argv[1:])
    if plain is not None:
        from gitcurator.output import emit, warn

        command, as_json = plain
        # What click's Command.main does around a command, so both paths end alike: an
        # empty line, then an interrupt (130) for Ctrl-C or end of input; exit 1 when the
        # reader of stdout went away.
        try:
            return emit(command(), as_json=as_json)
        except (KeyboardInterrupt, EOFError):
            warn("\n")
            raise KeyboardInterrupt from None
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            return 1
    from gitcurator.cli import main as cli_main

    return cli_main()

"""The `gitcurator` executable: `record`, `hook` and a plain `flush`, `list`, `validate`,
`sync` or `run` take a fast path (`commands/plain` parses those), the rest goes to the CLI.

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
    _closed_streams_to_devnull()
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


def _closed_streams_to_devnull() -> None:
    """Started with stdin, stdout or stderr closed (`<&-`, `>&-`), Python has no stream
    there: what would be written goes nowhere, as git's does (it exits 0), and stdin reads
    as empty, instead of failing at the first use. Opened in descriptor order, each file
    takes its closed descriptor (the lowest free), so no file opened later lands on 0-2."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # noqa: SIM115 - the process's own stdin now
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the process's own stdout now
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115


def _command() -> int:
    fast = parse_record(sys.argv[1:])
    if fast is not None:
        from gitcurator.commands.record import record_events

        return record_events(*fast)
    from gitcurator.commands.plain import plain_command

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

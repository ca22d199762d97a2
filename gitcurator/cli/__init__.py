"""The command line: parse, call one command function, show its result.

The cli/ room is the only one that imports click. Each command is a few lines in one of the
commands_* modules: it calls its function in gitcurator.commands, which returns a Result, and
hands that to gitcurator.output.emit, whose return value is the exit code. `main` runs click
under the one error handler and returns the code; it never exits the process.
"""

from __future__ import annotations

import sys

import click

from gitcurator.cli import (  # noqa: F401  (importing a module registers its commands)
    commands_agents,
    commands_passes,
    commands_reading,
    commands_setup,
    commands_upstream,
    commands_usage,
)
from gitcurator.cli.commands_setup import demo
from gitcurator.cli.options import cli
from gitcurator.error_handler import guarded
from gitcurator.errors import EXIT_OK, EXIT_USAGE
from gitcurator.output import warn

__all__ = ["cli", "main"]

# `disconnect`, the longest command name, narrows the help column by one character, which
# would cut demo's one-line help in an 80-column terminal: show its first sentence whole.
demo.short_help = (demo.help or "").strip().split("\n\n")[0].replace("\n", " ")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI on `argv` (default: the process's arguments) under the one error handler;
    return the exit code."""
    return guarded(lambda: _dispatch(argv))


def _dispatch(argv: list[str] | None) -> int:
    try:
        code = cli.main(args=argv, prog_name="gitcurator", standalone_mode=False)
    except click.exceptions.Abort:
        raise KeyboardInterrupt from None
    except click.NoSuchOption as exc:
        exc.show(file=sys.stderr)
        _hint_names_after_dashes(exc, sys.argv[1:] if argv is None else argv)
        return EXIT_USAGE
    except click.ClickException as exc:
        exc.show(file=sys.stderr)
        return EXIT_USAGE
    # --help and --version end with click's own exit code, a command with emit's.
    return code if isinstance(code, int) else EXIT_OK


def _hint_names_after_dashes(exc: click.NoSuchOption, argv: list[str]) -> None:
    """An unknown option that is a skill's name (`-21risk-automation`): say how to pass it."""
    words = argv[: argv.index("--")] if "--" in argv else argv
    word = next((w for w in words if w.startswith(exc.option_name)), exc.option_name)
    command = " ".join(w for w in words if w != word)
    warn(
        f"hint: if {word} is a skill's name, put it after `--`, which ends the options: "
        f"`gitcurator {command} -- {word}`"
    )

"""The root click group and the options every command shares.

Each command is a few lines: it calls its function in gitcurator.commands, which returns a
Result, and hands that to gitcurator.output.emit, whose return value is the exit code. `main`
runs click under the one error handler and returns the code; it never exits the process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from gitcurator import __version__

F = TypeVar("F", bound=Callable[..., Any])

ORIGINS = click.Choice(["agent", "user", "bundled", "hub"])


def _start(ctx: click.Context, here: Path | None) -> Path:
    """The folder to discover the repository from: this command's -C, the group's, or cwd."""
    group = ctx.find_root().params.get("repo_dir")
    return here or group or Path.cwd()


def repo_option(fn: F) -> F:
    """`-C PATH` on a command (git's spelling), also accepted before the command name."""

    def wrapper(ctx: click.Context, /, repo_dir: Path | None, **kwargs: Any) -> Any:
        return fn(_start(ctx, repo_dir), **kwargs)

    # Copies the name, help and the click options already attached to `fn`.
    functools.update_wrapper(wrapper, fn)
    option = minus_c("PATH", "Run in the repository at PATH instead of the current folder.")
    return option(click.pass_context(wrapper))  # type: ignore[return-value]


def minus_c(metavar: str, help: str) -> Callable[[F], F]:
    """The `-C` option (git's spelling) with its metavar and help."""
    return click.option(
        "-C",
        "repo_dir",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        metavar=metavar,
        help=help,
    )


def json_option(fn: F) -> F:
    """`--json`: the command's document instead of its text."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")(fn)


def now_option(fn: F) -> F:
    """`--now TIMESTAMP`: judge time as of another moment."""
    return click.option(
        "--now",
        metavar="TIMESTAMP",
        default=None,
        help="Judge time as of this UTC ISO-8601 moment (replay a pass exactly).",
    )(fn)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120})
@click.option(
    "-C",
    "repo_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    metavar="PATH",
    help="Run as if started in PATH (like git -C).",
)
@click.version_option(__version__, "-V", "--version", prog_name="gitcurator")
def cli(repo_dir: Path | None) -> None:
    """Curate an AI agent's skill library as a git repository.

    Skills are folders holding a SKILL.md. gitcurator validates them, records how they are used
    in git notes, retires what nobody uses and folds siblings into umbrella skills, always as
    commits on a reviewable curator/<run-id> branch. Start with `gitcurator demo`.
    """

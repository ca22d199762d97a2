"""Commands that set a library up: demo, init, validate, hooks."""

from __future__ import annotations

from pathlib import Path

import click

from gitcurator.cli.options import F, cli, json_option, minus_c, now_option, repo_option
from gitcurator.cli.progress import terminal_progress
from gitcurator.output import emit

# -- setting up ---------------------------------------------------------------------------


def _in_folder(ctx: click.Context, here: Path | None, path: Path | None) -> Path | None:
    """`path` as seen from this command's -C (or the group's), like `git -C DIR init PATH`:
    a relative PATH is inside DIR, and without PATH the folder is DIR itself."""
    base = here or ctx.find_root().params.get("repo_dir")
    if base is None or (path is not None and path.is_absolute()):
        return path
    return base / path if path is not None else base


def _folder_option(fn: F) -> F:
    """`-C DIR` on a command whose argument is the folder to make (init, demo)."""
    return minus_c("DIR", "Work in DIR (a relative PATH is taken inside it).")(fn)


@cli.command()
@click.argument("dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@now_option
@_folder_option
@click.pass_context
def demo(ctx: click.Context, dir: Path | None, now: str | None, repo_dir: Path | None) -> int:
    """Build a sample library with usage history and run a pass on it.

    DIR must be new or empty (default: a new temporary folder). The library holds a few dozen
    skills made by an agent, by you and from a hub, with six months of commits and usage
    before NOW (default: the current time); the pass's review branch shows what the curator
    archives and why.
    """
    from gitcurator.commands.demo import demo as run

    return emit(run(_in_folder(ctx, repo_dir, dir), now=now))


@cli.command()
@click.argument("path", required=False, type=click.Path(path_type=Path), default=None)
@click.option("--no-verify", is_flag=True, help="Commit even if skills fail validation.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
@_folder_option
@click.pass_context
def init(
    ctx: click.Context, path: Path | None, no_verify: bool, quiet: bool, repo_dir: Path | None
) -> int:
    """Make PATH a skills repository and commit what is there.

    Writes a default .gitcurator.yaml unless one exists. An existing repository is adopted,
    not re-initialised; running init again changes nothing. Skills that fail validation stop
    the first commit (nothing is written) unless --no-verify.
    """
    from gitcurator.commands.init import init as run

    target = _in_folder(ctx, repo_dir, path) or Path.cwd()
    with terminal_progress(quiet) as progress:
        result = run(target, verify=not no_verify, quiet=quiet, progress=progress)
    return emit(result)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--strict", is_flag=True, help="The Agent Skills spec exactly (skills-ref's rules).")
@click.option("--staged", is_flag=True, help="Check what is staged for commit, not the work tree.")
@click.option("-q", "--quiet", is_flag=True, help="Show errors only, not warnings.")
@json_option
@repo_option
def validate(
    start: Path, paths: tuple[str, ...], strict: bool, staged: bool, quiet: bool, as_json: bool
) -> int:
    """Check skills against the spec, plus links, secrets and modes.

    With no PATH, every skill of the repository; otherwise the skills holding each PATH (skill
    folders or files inside them; files outside skills are ignored). Exit 0 clean, 1 errors.
    """
    from gitcurator.commands.validate import validate as run

    with terminal_progress(as_json) as progress:
        result = run(
            start,
            paths,
            strict=strict,
            staged=staged,
            as_json=as_json,
            quiet=quiet,
            progress=progress,
        )
    return emit(result, as_json=as_json)


@cli.group()
def hooks() -> None:
    """Install git hooks that validate skills before each commit."""


@hooks.command("install")
@click.option("--force", is_flag=True, help="Replace a pre-commit hook that is not gitcurator's.")
@repo_option
def hooks_install(start: Path, force: bool) -> int:
    """Install the pre-commit hook: a commit of skills that fail validation is refused."""
    from gitcurator.commands.hooks import install

    return emit(install(start, force=force))

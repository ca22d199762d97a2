"""Commands for skills from upstream: add, outdated, update."""

from __future__ import annotations

from pathlib import Path

import click

from gitcurator.cli.options import cli, json_option, repo_option
from gitcurator.cli.progress import terminal_progress
from gitcurator.output import emit


@cli.command()
@click.argument("source")
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option(
    "--path",
    "subdir",
    default="",
    metavar="SUBDIR",
    help="Look for skills under SUBDIR of the source.",
)
@click.option(
    "--ref", metavar="REF", help="Branch, tag or commit id to take (default: the source's HEAD)."
)
@click.option("--as", "as_name", metavar="NAME", help="Add the one NAME under this name instead.")
@json_option
@repo_option
def add(
    start: Path,
    source: str,
    names: tuple[str, ...],
    subdir: str,
    ref: str | None,
    as_name: str | None,
    as_json: bool,
) -> int:
    """Copy skills from a git source, or list what it offers.

    SOURCE is a git URL or path (a folder, file://, git://, http(s)://, ssh) or owner/repo
    for a GitHub repository (write ./owner/repo for a folder of that name). Without NAME,
    lists the skills it offers and adds nothing. With names, copies those folders whole
    (modes kept) as one commit and records each as origin hub with its source, path, ref and
    commit, so `outdated` and `update` can follow it. A skill of the same name is never
    overwritten: refused, or taken under --as.

    Example: gitcurator add anthropics/skills pdf --path skills
    """
    from gitcurator.commands.add import add as run

    with terminal_progress(as_json) as progress:
        result = run(start, source, names, subdir, ref, as_name, progress)
    return emit(result, as_json=as_json)


@cli.command()
@json_option
@repo_option
def outdated(start: Path, as_json: bool) -> int:
    """Which added skills changed upstream or here.

    Fetches each source once. Per skill: whether its source moved, whether the skill changed
    there, whether it was edited locally since it was added or updated, and whether the
    source removed it (reported, never deleted). An unreachable source is reported per skill.

    Example: gitcurator outdated --json
    """
    from gitcurator.commands.outdated import outdated as run

    return emit(run(start), as_json=as_json)


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--dry-run", is_flag=True, help="Show what would be merged; change nothing.")
@json_option
@repo_option
def update(start: Path, names: tuple[str, ...], dry_run: bool, as_json: bool) -> int:
    """Merge upstream changes, keeping local edits.

    Three-way, file by file: base = the skill at the recorded source commit, ours = the
    library's folder, theirs = the source's new version. Clean: one commit per source on the
    default branch. Any conflict: the default branch is untouched, the merged result (with
    conflict markers) goes to a review branch update/RUN and the command exits 1 naming the
    files; fix them there and take it with `gitcurator merge update/RUN`.

    Example: gitcurator update pdf --dry-run
    """
    from gitcurator.commands.update import update as run

    with terminal_progress(as_json) as progress:
        result = run(start, names, dry_run=dry_run, progress=progress)
    return emit(result, as_json=as_json)

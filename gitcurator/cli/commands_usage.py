"""Commands that record usage and provenance: record, flush, track, adopt, commit, pin."""

from __future__ import annotations

from pathlib import Path

import click

from gitcurator.cli.options import ORIGINS, cli, json_option, repo_option
from gitcurator.output import emit

# -- telemetry and provenance -------------------------------------------------------------


@cli.command()
@click.argument("kind", type=click.Choice(["use", "view"]))
@click.argument("names", nargs=-1, required=True)
@click.option("--at", metavar="TIMESTAMP", help="When it happened (UTC ISO-8601; default now).")
@repo_option
def record(start: Path, kind: str, names: tuple[str, ...], at: str | None) -> int:
    """Record that an agent used or viewed skills (the hot path)."""
    from gitcurator.commands.record import record as run

    return emit(run(start, kind, names, at))


@cli.command()
@json_option
@repo_option
def flush(start: Path, as_json: bool) -> int:
    """Fold buffered usage events into the git notes now.

    Journal lines naming no skill of the library, or dated more than a day ahead, are
    dropped with a warning (as `record` refuses them); the count is in the text and --json.
    """
    from gitcurator.commands.flush import flush as run

    return emit(run(start), as_json=as_json)


@cli.command()
@click.argument("names", nargs=-1, required=True)
@click.option("--origin", type=ORIGINS, required=True, help="Who made these skills.")
@repo_option
def track(start: Path, names: tuple[str, ...], origin: str) -> int:
    """Set the provenance of skills (agent, user, bundled, hub)."""
    from gitcurator.commands.track import track as run

    return emit(run(start, names, origin))


@cli.command()
@click.argument("name")
@repo_option
def adopt(start: Path, name: str) -> int:
    """Hand a user skill over to the curator (origin becomes agent)."""
    from gitcurator.commands.adopt import adopt as run

    return emit(run(start, name))


@cli.command()
@click.option("-m", "--message", required=True, help="The commit message.")
@click.option(
    "--origin", type=ORIGINS, help="Origin of new skills (default: $GITCURATOR_ORIGIN or user)."
)
@click.option(
    "--allow-similar",
    is_flag=True,
    help="Commit a new skill even if an existing one is very like it (warns instead).",
)
@repo_option
def commit(start: Path, message: str, origin: str | None, allow_similar: bool) -> int:
    """Commit skill changes, recording the origin of new skills.

    Validates the changed skills first. A new skill whose wording is very like an existing
    skill's (or whose description is the same) is refused with exit 1 and the existing skill
    named: update that skill instead, so the library does not fill with near-copies. Commit
    with --allow-similar when the new skill is meant to stand beside it. Edits, removals and
    archived skills are never compared.
    """
    from gitcurator.commands.commit import commit as run

    return emit(run(start, message, origin, allow_similar=allow_similar))


@cli.command()
@click.argument("name")
@repo_option
def pin(start: Path, name: str) -> int:
    """Keep a skill from being archived or merged by the curator."""
    from gitcurator.commands.pin import pin as run

    return emit(run(start, name))


@cli.command()
@click.argument("name")
@repo_option
def unpin(start: Path, name: str) -> int:
    """Let the curator manage a pinned skill again."""
    from gitcurator.commands.pin import unpin as run

    return emit(run(start, name))

"""The MCP server and the agent connections: mcp, connect, disconnect, hook, ingest."""

from __future__ import annotations

from pathlib import Path

import click

from gitcurator.agents.events import AGENTS
from gitcurator.cli.options import cli, json_option, repo_option
from gitcurator.cli.progress import terminal_progress
from gitcurator.output import emit

# -- the MCP server -------------------------------------------------------------------------


@cli.command("mcp")
@repo_option
def mcp_(start: Path) -> int:
    """Serve the live skills to MCP hosts over stdio.

    Tools list_skills, load_skill and read_skill_file, the skills as skill:// resources and
    the Skills extension's skills/list and skills/get, read from HEAD (not the work tree) and
    re-read when it moves. Every load is recorded: each load a use, each support file read a
    view (source mcp). Register it with a host as the command `gitcurator mcp -C REPO`.
    """
    from gitcurator.commands.mcp import mcp as run

    return emit(run(start))


# -- agents -------------------------------------------------------------------------------

AGENT_NAMES = click.Choice(list(AGENTS))


def _given_repo() -> Path | None:
    """-C as the user gave it (on the command or before it), else None."""
    ctx = click.get_current_context()
    given = ctx.params.get("repo_dir") or ctx.find_root().params.get("repo_dir")
    return Path(given) if given else None


@cli.command()
@click.argument("agent", type=AGENT_NAMES, required=False)
@click.option(
    "--scope",
    type=click.Choice(["user", "project"]),
    default="user",
    show_default=True,
    help="The agent's skills and settings for you, or for the project in the current folder.",
)
@click.option("--mcp", is_flag=True, help="Also register gitcurator's MCP server with the agent.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--list", "list_", is_flag=True, help="Show what is wired and the last events.")
@json_option
@repo_option
def connect(
    start: Path,
    agent: str | None,
    scope: str,
    mcp: bool,
    dry_run: bool,
    list_: bool,
    as_json: bool,
) -> int:
    """Wire an agent's hooks so it reports skill loads and writes.

    AGENT is claude-code, codex or hermes. Finds the agent's skills folder (or uses -C),
    makes it a skills repository if it is not one, and installs the agent's own hooks
    (Hermes: a plugin) calling gitcurator. Other hooks are kept in place; the edited file
    is backed up first; a settings file that is not valid JSON/TOML/YAML, or is read-only,
    is refused with nothing changed. Running it again changes nothing. --list shows every
    connection, its last event and the names it loaded that the library lacks.
    """
    from gitcurator.commands import connect as command

    if list_:
        if agent:
            raise click.UsageError("--list takes no AGENT")
        return emit(command.list_connections(), as_json=as_json)
    if agent is None:
        raise click.UsageError("give the AGENT to connect (claude-code, codex, hermes) or --list")
    result = command.connect(agent, _given_repo(), scope=scope, mcp=mcp, dry_run=dry_run)
    return emit(result, as_json=as_json)


@cli.command()
@click.argument("agent", type=AGENT_NAMES)
@click.option("--scope", type=click.Choice(["user", "project"]), help="Only this scope.")
@repo_option
def disconnect(start: Path, agent: str, scope: str | None) -> int:
    """Remove exactly what `connect` added for AGENT.

    Each file it edits is backed up first; other hooks and settings stay as they are.
    """
    from gitcurator.commands.connect import disconnect as run

    return emit(run(agent, _given_repo(), scope=scope))


@cli.command()
@click.argument("agent")
@repo_option
def hook(start: Path, agent: str) -> int:
    """Record what an agent's hook sends on stdin.

    Always exits 0 and prints nothing, so the agent is never disturbed; failures go to
    .git/gitcurator/hook.log.
    """
    from gitcurator.commands.hook import run

    return run(agent, start)


@cli.command()
@click.argument("agent", type=AGENT_NAMES)
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--since", metavar="TIMESTAMP", help="Only events at or after this UTC moment.")
@json_option
@repo_option
def ingest(
    start: Path, agent: str, paths: tuple[str, ...], since: str | None, as_json: bool
) -> int:
    """Backfill usage and provenance from an agent's own logs.

    So history from before `connect` counts, and what a hook missed is caught.
    claude-code: transcripts (~/.claude/projects/**/*.jsonl, or PATHs); codex: session
    logs ($CODEX_HOME/sessions); hermes: .usage.json, only what grew since the last
    ingest. Logs are read on from where the last ingest stopped; an event already counted
    (by a hook or an earlier ingest) counts once. Folds the events into the notes.
    """
    from gitcurator.commands.ingest import ingest as run

    with terminal_progress(as_json) as progress:
        result = run(start, agent, since, paths, progress)
    return emit(result, as_json=as_json)

"""The command line: parse, call one command function, show its result (only click import).

Each command is a few lines: it calls its function in gitcurator.commands, which returns a
Result, and hands that to gitcurator.output.emit, whose return value is the exit code. `main`
runs click under the one error handler and returns the code; it never exits the process.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from gitcurator import __version__
from gitcurator.agents.events import AGENTS
from gitcurator.error_handler import guarded
from gitcurator.errors import EXIT_OK, EXIT_USAGE
from gitcurator.output import Progress, emit, warn

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
    return emit(run(target, verify=not no_verify, quiet=quiet))


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

    result = run(start, paths, strict=strict, staged=staged, as_json=as_json, quiet=quiet)
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


# -- reading ------------------------------------------------------------------------------


@cli.command("list")
@click.option(
    "--state", type=click.Choice(["active", "stale", "archived"]), help="Only this state."
)
@click.option("--origin", type=ORIGINS, help="Only skills of this origin.")
@now_option
@json_option
@repo_option
def list_(
    start: Path, state: str | None, origin: str | None, now: str | None, as_json: bool
) -> int:
    """Skills with state, origin, pin and usage."""
    from gitcurator.commands.list import list_skills

    return emit(list_skills(start, state=state, origin=origin, now=now), as_json=as_json)


@cli.command()
@click.argument("name")
@now_option
@json_option
@repo_option
def show(start: Path, name: str, now: str | None, as_json: bool) -> int:
    """One skill: where it is, its state, provenance and usage."""
    from gitcurator.commands.show import show as run

    return emit(run(start, name, now=now), as_json=as_json)


@cli.command()
@now_option
@json_option
@repo_option
def status(start: Path, now: str | None, as_json: bool) -> int:
    """Counts by state and origin, last pass, most and least used."""
    from gitcurator.commands.status import status as run

    return emit(run(start, now=now), as_json=as_json)


@cli.command()
@json_option
@repo_option
def log(start: Path, as_json: bool) -> int:
    """The audit trail of passes, merges, rollbacks and restores.

    Read from commit trailers only, so a fresh clone shows the same trail; passes on curator
    branches not merged yet show as pending review.
    """
    from gitcurator.commands.log import log as run

    return emit(run(start), as_json=as_json)


@cli.command()
@click.argument("name")
@json_option
@repo_option
def resolve(start: Path, name: str, as_json: bool) -> int:
    """The live skill a name now points to (umbrellas included)."""
    from gitcurator.commands.resolve import resolve as run

    return emit(run(start, name), as_json=as_json)


@cli.command()
@now_option
@json_option
@repo_option
def clusters(start: Path, now: str | None, as_json: bool) -> int:
    """The sibling clusters the LLM pass would send (no model used).

    Candidates are curated skills (agent-made; bundled ones with prune_builtins) that are not
    pinned, not protected and at least curator.min_age_days old at NOW. Siblings read alike (a
    shared name prefix helps, never alone); skills with no sibling are not sent.
    """
    from gitcurator.commands.clusters import show_clusters

    return emit(show_clusters(start, now=now), as_json=as_json)


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


# -- curator passes -----------------------------------------------------------------------


@cli.command()
@click.option("--dry-run", is_flag=True, help="Print the plan; write nothing at all.")
@click.option(
    "--consolidate",
    is_flag=True,
    help="Also run the LLM umbrella pass (on by default with curator.consolidate: true).",
)
@now_option
@json_option
@repo_option
def run(start: Path, dry_run: bool, consolidate: bool, now: str | None, as_json: bool) -> int:
    """Run a curator pass on a new curator/<run-id> review branch.

    The lifecycle pass marks idle skills stale and archives long-idle ones. With
    --consolidate the model is then asked, one request per cluster of siblings (see
    `gitcurator clusters`), for umbrella skills; each umbrella that passes the rules is one
    commit, the rest is reported. Set llm.model (and llm.base_url for a non-OpenAI endpoint,
    the key in $OPENAI_API_KEY or llm.api_key_env) in .gitcurator.yaml.

    Nothing changes on the default branch until `gitcurator merge RUN`. --dry-run asks the
    model too, but writes nothing at all.
    """
    from gitcurator.commands.run import TerminalProgress
    from gitcurator.commands.run import run as run_pass

    progress = TerminalProgress()
    result = run_pass(start, now=now, dry_run=dry_run, consolidate=consolidate, progress=progress)
    return emit(result, as_json=as_json)


@cli.command("maybe-run")
@click.option(
    "--idle-for",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="How long the agent has been idle (checked against curator.min_idle_hours).",
)
@now_option
@json_option
@repo_option
def maybe_run(start: Path, idle_for: float | None, now: str | None, as_json: bool) -> int:
    """Run a pass only if one is due (interval, idle, not paused).

    Due means: curator.enabled, not paused, curator.interval_hours since the last pass, and
    with --idle-for, idle at least curator.min_idle_hours. The very first call runs nothing:
    it starts the clock. Exit 0 whether or not a pass ran; non-zero only if the pass failed.
    """
    from gitcurator.commands.maybe_run import maybe_run as run

    return emit(run(start, idle_for=idle_for, now=now, as_json=as_json), as_json=as_json)


@cli.command()
@repo_option
def pause(start: Path) -> int:
    """Stop automatic passes (maybe-run) until resume."""
    from gitcurator.commands.pause import pause as run

    return emit(run(start))


@cli.command()
@repo_option
def resume(start: Path) -> int:
    """Allow automatic passes again."""
    from gitcurator.commands.pause import resume as run

    return emit(run(start))


@cli.command()
@click.argument("run_id", metavar="[RUN]", required=False)
@json_option
@repo_option
def merge(start: Path, run_id: str | None, as_json: bool) -> int:
    """Merge a curator branch into the default branch.

    RUN is a run id (or its curator/RUN branch); default: the newest pass not merged yet. A
    fast-forward when the default branch has not moved since the pass, else one merge commit.
    Refuses, changing nothing, on uncommitted changes or when a person changed a skill the
    pass changes; then run a fresh pass. Records when the skills were archived.
    """
    from gitcurator.commands.merge import merge as run

    return emit(run(start, run_id), as_json=as_json)


@cli.command()
@click.argument("run_id", metavar="RUN", required=False)
@click.option("--commit", "commit_sha", metavar="SHA", help="Revert only this commit of the pass.")
@click.option(
    "--list", "list_runs", is_flag=True, help="Show the merged passes that can be undone."
)
@json_option
@repo_option
def rollback(
    start: Path, run_id: str | None, commit_sha: str | None, list_runs: bool, as_json: bool
) -> int:
    """Undo a merged pass (or one of its commits) with a commit.

    Reverts the skill-changing commits of run RUN on the default branch as one commit (the
    report stays as history), so the skills it archived are live and active again. --commit
    reverts only that commit of a pass. Refuses, changing nothing, on uncommitted changes or
    when a path the pass changed was changed since. --list shows what can be undone.
    """
    from gitcurator.commands import rollback as command

    if list_runs:
        if run_id or commit_sha:
            raise click.UsageError("--list takes no RUN or --commit")
        return emit(command.list_rollbacks(start), as_json=as_json)
    return emit(command.rollback(start, run_id, commit_sha), as_json=as_json)


@cli.command()
@click.argument("name")
@repo_option
def restore(start: Path, name: str) -> int:
    """Bring an archived skill back from .archive/, as a commit.

    NAME is the skill's name, or its folder under .archive/ when it was archived more than
    once. Refused when a live skill has that name or the skill folder has uncommitted changes.
    """
    from gitcurator.commands.restore import restore as run

    return emit(run(start, name))


@cli.command()
@click.argument("name")
@now_option
@repo_option
def archive(start: Path, name: str, now: str | None) -> int:
    """Move a skill into .archive/ by hand, as a commit.

    Records archived_at (NOW) in the skill's notes, which is what `purge` goes by. Pinned
    skills are refused (unpin first), as is a skill folder with uncommitted changes.
    """
    from gitcurator.commands.archive import archive as run

    return emit(run(start, name, now=now))


@cli.command()
@click.option(
    "--older-than", type=float, required=True, metavar="DAYS", help="Archived longer than this."
)
@click.option("--dry-run", is_flag=True, help="List what would be removed; write nothing.")
@click.option("--yes", is_flag=True, help="Really remove (otherwise only list).")
@now_option
@json_option
@repo_option
def purge(
    start: Path, older_than: float, dry_run: bool, yes: bool, now: str | None, as_json: bool
) -> int:
    """Remove long-archived skills (the only command that removes).

    Skills whose recorded archived_at is more than DAYS before NOW leave the tree in one commit;
    history keeps them. Without --yes it only lists them; skills with no recorded archived_at
    are kept and listed with the reason.
    """
    from gitcurator.commands.purge import purge as run

    return emit(run(start, older_than, now=now, dry_run=dry_run, yes=yes), as_json=as_json)


@cli.command()
@click.argument("remote", required=False, default="origin")
@click.option(
    "--force",
    is_flag=True,
    help="Sync even if this repository or the remote is not a skills repository.",
)
@json_option
@repo_option
def sync(start: Path, remote: str, force: bool, as_json: bool) -> int:
    """Exchange telemetry and curator branches with a git remote.

    REMOTE is a configured remote's name (default: origin), a URL (file://, git://, http(s)://,
    ssh://) or the path of a repository. Fetches the remote's telemetry notes, merges them
    with the local ones (per-host counters: nothing is lost, repeats change nothing), pushes
    the result without forcing, and exchanges the curator/* branches that one side lacks.
    A remote that moved meanwhile is fetched and merged again, a few times at most.
    Either side not being a skills repository (no .gitcurator.yaml, no gitcurator notes or
    curator branches) is refused unless --force.
    """
    from gitcurator.commands.sync import sync as run

    return emit(run(start, remote, progress=Progress(), force=force), as_json=as_json)


@cli.group("import")
def import_() -> None:
    """Take over a skill library from another agent."""


@import_.command("hermes")
@click.argument("path", type=click.Path(path_type=Path, file_okay=False))
@click.option("--no-verify", is_flag=True, help="Import even if skills fail validation.")
@json_option
@repo_option
def import_hermes(start: Path, path: Path, no_verify: bool, as_json: bool) -> int:
    """Take over a Hermes skills folder: skills, archive, usage, pins, provenance.

    Without -C the folder itself becomes the repository (created like `init` if needed);
    with -C REPO its skills are copied into REPO's skills folder. One commit for the skills,
    one notes commit for usage; Hermes' own state files are not committed. Running it again
    changes only what Hermes changed since.
    """
    from gitcurator.commands.import_hermes import import_hermes as run

    # `start` falls back to the current folder; the import needs to know if -C was given.
    ctx = click.get_current_context()
    given = ctx.params.get("repo_dir") or ctx.find_root().params.get("repo_dir")
    return emit(run(path, start if given else None, verify=not no_verify), as_json=as_json)


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

    return emit(run(start, agent, since, paths), as_json=as_json)


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

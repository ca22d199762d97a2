"""Commands of curator passes and their results: run, merge, rollback, archive, sync..."""

from __future__ import annotations

from pathlib import Path

import click

from gitcurator.cli.options import cli, json_option, now_option, repo_option
from gitcurator.cli.progress import terminal_progress
from gitcurator.output import emit
from gitcurator.progress import NO_PROGRESS

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

    with terminal_progress(as_json) as loading:
        # The model's progress, a line per cluster, shows where the bars do (never in JSON).
        asking = None if loading is NO_PROGRESS else TerminalProgress()
        result = run_pass(
            start,
            now=now,
            dry_run=dry_run,
            consolidate=consolidate,
            progress=asking,
            loading=loading,
        )
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

    RUN may be an update's review branch update/ID (`gitcurator update` left a conflict there):
    taken once its markers are fixed, refused when it changes anything but the skills it merged.

    Example: gitcurator merge update/20260101-120000
    """
    from gitcurator.commands.merge import merge as run

    return emit(run(start, run_id), as_json=as_json)


@cli.command()
@click.argument("run_id", metavar="[RUN]", required=False)
@click.option("--diff", "show_diff", is_flag=True, help="Add the diffs, paged like git diff.")
@click.option("--markdown", is_flag=True, help="Print a pull-request description instead.")
@click.option("--no-pager", is_flag=True, help="With --diff: print straight to the terminal.")
@json_option
@repo_option
def review(
    start: Path, run_id: str | None, show_diff: bool, markdown: bool, no_pager: bool, as_json: bool
) -> int:
    """Show a curator pass before merging it, in one screen.

    RUN is a run id (or its curator/RUN branch); default: the newest pass waiting for review.
    Shows the counts by state before and after, each archived and stale skill with its reason
    and last activity, each umbrella with what it absorbed (and how much of each it kept) or
    demoted where, the refused plans, and what the skill catalogue costs every prompt before
    and after, all read from what the pass stored. --diff adds, per umbrella, its SKILL.md
    against the bodies of the skills it absorbed (as they were at the pass's base), and every
    other change as git shows it, coloured on a terminal (not with NO_COLOR or TERM=dumb) and
    paged through $GIT_PAGER, git's core.pager, $PAGER or `less -FRX`. --markdown prints a
    pull-request description for the branch `sync` pushed, to review it on any forge (with the
    refusal `merge` would give a branch holding what no pass writes).

    \b
    Examples:
      gitcurator review                    # the newest pass waiting
      gitcurator review --diff             # with its diffs, paged
      gitcurator review 20261101-120000 --markdown > pr.md
    """
    from gitcurator.commands.review import core_pager
    from gitcurator.commands.review import review as run
    from gitcurator.output import colour_wanted, emit_paged

    if markdown and (show_diff or as_json):
        raise click.UsageError("--markdown takes no --diff or --json (a forge shows the diff)")
    colour = show_diff and not as_json and colour_wanted()
    result = run(start, run_id, diff=show_diff, markdown=markdown, colour=colour)
    if show_diff and not as_json:
        return emit_paged(result, pager=not no_pager, core_pager=core_pager(start))
    return emit(result, as_json=as_json)


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
    `gitcurator search QUERY --archived` finds an archived skill and names this command.

    \b
    Examples:
      gitcurator restore pdf-forms
      gitcurator restore .archive/documents/pdf-forms-2
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

    with terminal_progress(as_json) as progress:
        result = run(start, remote, progress=progress, force=force)
    return emit(result, as_json=as_json)


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
    with terminal_progress(as_json) as progress:
        result = run(path, start if given else None, verify=not no_verify, progress=progress)
    return emit(result, as_json=as_json)

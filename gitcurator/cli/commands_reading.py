"""Commands that read: list, show, status, log, report, resolve, refs, clusters, search."""

from __future__ import annotations

from pathlib import Path

import click

from gitcurator.cli.options import ORIGINS, cli, json_option, now_option, repo_option
from gitcurator.cli.progress import terminal_progress
from gitcurator.output import emit

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

    result = list_skills(start, state=state, origin=origin, now=now, as_json=as_json)
    return emit(result, as_json=as_json)


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
    """Counts by state and origin, last pass, catalogue tokens.

    The catalogue is what an agent loads at start-up and sends with every prompt: each live
    skill's name and description, counted in tokens (tiktoken's o200k_base when its encoding
    is cached, else an estimate; GITCURATOR_TOKENIZER=estimate forces it).
    """
    from gitcurator.commands.status import status as run

    with terminal_progress(as_json) as progress:
        result = run(start, now=now, progress=progress)
    return emit(result, as_json=as_json)


@cli.command()
@json_option
@repo_option
def log(start: Path, as_json: bool) -> int:
    """The audit trail: passes, merges, rollbacks, adds, updates.

    Restores, archives, purges and imports too; skills taken from upstream by `add` and
    `update`. Read from commit trailers only, so a fresh clone shows the same trail; passes on
    curator branches not merged yet show as pending review.
    """
    from gitcurator.commands.log import log as run

    return emit(run(start), as_json=as_json)


@cli.command()
@click.option("--html", is_flag=True, help="Write the health page (one self-contained HTML file).")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="With --html: write the page to FILE (default .git/gitcurator/report.html).",
    metavar="FILE",
)
@now_option
@json_option
@repo_option
def report(start: Path, html: bool, output: Path | None, now: str | None, as_json: bool) -> int:
    """The newest pass's REPORT.md; with --html, the health page.

    The page shows skills by state over time, uses per week, the umbrellas, the passes and
    the one pending review, what the catalogue costs in tokens, and a sortable table of every
    skill. It needs no network: open the path it prints in a browser.

    Example: gitcurator report --html -o ~/health.html
    """
    from gitcurator.commands.report import report as read_report
    from gitcurator.commands.report import report_html

    if output is not None and not html:
        raise click.UsageError("-o/--output goes with --html")
    if html:
        return emit(report_html(start, output=output, now=now), as_json=as_json)
    return emit(read_report(start), as_json=as_json)


@cli.command()
@click.argument("name")
@json_option
@repo_option
def resolve(start: Path, name: str, as_json: bool) -> int:
    """The live skill a name now points to (umbrellas included)."""
    from gitcurator.commands.resolve import resolve as run

    return emit(run(start, name), as_json=as_json)


@cli.command()
@click.argument("name")
@json_option
@repo_option
def refs(start: Path, name: str, as_json: bool) -> int:
    """What refers to a skill, and what it refers to, as committed.

    References are links into another skill's folder and a skill's name written as inline
    code (`pdf-forms`), skill:pdf-forms, /pdf-forms, $pdf-forms or, hyphenated, in prose (a
    plain word such as `git` in prose is no reference) or listed in a frontmatter's
    related_skills, in skills' Markdown and in the reference_files of the config (default
    AGENTS.md, CLAUDE.md, **/AGENTS.md). An archived or absorbed name still answers: its
    referrers are what would dangle.

    Example: gitcurator refs pdf-forms   (before archiving it: who would be left dangling)

    Example: gitcurator refs pdf-forms --json
    """
    from gitcurator.commands.refs import refs as run

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


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--archived", is_flag=True, help="Search archived skills too (marked as such).")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Show at most N skills.",
)
@json_option
@repo_option
def search(start: Path, query: tuple[str, ...], archived: bool, limit: int, as_json: bool) -> int:
    """Skills ranked by how well their wording matches QUERY.

    QUERY is one or more words, quoted or not.

    Uses the wording model `clusters` uses (name, description, start of the body), over the
    default branch. With --archived, archived skills are ranked too, each with the command
    that restores it. The index is cached by the branch's tree, so repeated searches are fast.

    Example: gitcurator search extract tables from pdf --archived --limit 5
    """
    from gitcurator.commands.search import search as run

    return emit(run(start, " ".join(query), archived=archived, limit=limit), as_json=as_json)

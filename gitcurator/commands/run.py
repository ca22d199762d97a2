"""`gitcurator run`: one curator pass (load, plan, apply, report), or its dry run.

A dry run is the same pass without the apply step: it asks the model too, and writes nothing
at all (no object, ref, note or cache file). Exit 1 when the umbrella step was asked for and
no cluster got a usable plan; the lifecycle work and the report are on the branch all the same.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator import statefiles
from gitcurator.collector import paused
from gitcurator.curation.pass_apply import Applied, InterruptedAfterPublishing, apply_pass
from gitcurator.curation.pass_catalogue import with_catalogue
from gitcurator.curation.pass_inputs import load_pass
from gitcurator.curation.pass_plan import PassPlan, plan_pass
from gitcurator.curation.pass_report import pass_doc, run_document
from gitcurator.curation.pass_text import asked_line, asking_line, failure_note, pass_text
from gitcurator.curation.token_counter import token_counter
from gitcurator.errors import EXIT_FAILURE, EXIT_OK
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Progress, Result, warn
from gitcurator.progress import NO_PROGRESS
from gitcurator.progress import Progress as LoadProgress
from gitcurator.timeutil import moment_of

if TYPE_CHECKING:
    from gitcurator.curation.cluster_review import ClusterProgress
    from gitcurator.umbrella.clusters import Cluster
    from gitcurator.umbrella.model_client import ChatClient


def run(
    start: Path,
    *,
    now: str | None,
    dry_run: bool,
    consolidate: bool,
    progress: ClusterProgress | None = None,
    loading: LoadProgress = NO_PROGRESS,
) -> Result:
    """One pass at `now` (default: the current time); `consolidate` adds the umbrella step
    (so does curator.consolidate in the config). `progress` hears how the model is asked,
    `loading` how the library is read."""
    moment = moment_of(now)
    counter = token_counter()
    with open_repo(start) as repo:
        client = _client(repo, consolidate)
        guard = statefiles.read_only() if dry_run else _locked(repo)
        # Without a model the pass touches no network: the collector can wait (collector.py).
        with guard, client or contextlib.nullcontext(), paused(client is None):
            inputs = load_pass(repo, moment, loading)
            plan = with_catalogue(plan_pass(inputs, client, progress), *counter)
            applied = None if dry_run else _apply(repo, plan)
    doc = applied.doc if applied else run_document(plan)
    branch = applied.branch if applied else None
    failure = failure_note(plan, doc, branch)
    notes = tuple(f"gitcurator: warning: {p}" for p in (*plan.problems, *inputs.references.notes))
    return Result(
        code=EXIT_FAILURE if failure else EXIT_OK,
        text=pass_text(plan, doc, branch, dry_run=dry_run),
        doc=pass_doc(plan, doc, branch, dry_run=dry_run),
        notes=(*notes, failure) if failure else notes,
    )


class TerminalProgress:
    """`cluster k of n` on stderr, when stderr is a terminal (never in a pipe or a log)."""

    def __init__(self, line: Progress | None = None) -> None:
        self.line = line or Progress()
        self.total = 0
        self.since = 0.0

    def started(self, clusters: int) -> None:
        """Asking begins: the clock starts."""
        self.total, self.since = clusters, time.monotonic()

    def asking(self, k: int, cluster: Cluster, tokens: int) -> None:
        """Show which cluster is being asked about."""
        if self.total:
            self.line.show(asking_line(k, self.total, cluster, tokens))

    def finished(self) -> None:
        """Leave a line saying how long it took."""
        if self.total:
            self.line.done(asked_line(self.total, time.monotonic() - self.since))


def _apply(repo: SkillsRepo, plan: PassPlan) -> Applied:
    try:
        return apply_pass(repo, plan)
    except InterruptedAfterPublishing as exc:
        warn(str(exc))  # where the pass is; the error handler then says "interrupted"
        raise


def _client(repo: SkillsRepo, asked: bool) -> ChatClient | None:
    """The model client if the umbrella step is on (flag or config); refuses before any work
    when the settings cannot reach a model."""
    if not (asked or repo.config.curator.consolidate):
        return None
    from gitcurator.umbrella.model_client import ChatClient

    settings = repo.config.llm
    return ChatClient(
        settings, os.environ, timeout=settings.timeout_seconds, retries=settings.retries
    )


@contextlib.contextmanager
def _locked(repo: SkillsRepo) -> Iterator[None]:
    from gitcurator.locks import pass_lock

    with pass_lock(repo.store.state_dir(), 0):
        yield

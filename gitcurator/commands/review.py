"""`gitcurator review [RUN] [--diff] [--markdown]`: a pass before it is merged, from what it
stored (run.json, its commits), in one screen, as a pull-request description, or with diffs."""

from __future__ import annotations

from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.commands.review_branch import (
    PENDING,
    DiffBudget,
    ReviewedBranch,
    branch_catalogue,
    commit_changes,
    pick_branch,
    skill_files_at,
    text_of,
)
from gitcurator.config import Config
from gitcurator.curation.branch_verify import branch_warning
from gitcurator.library import open_repo
from gitcurator.output import Result, warning_line
from gitcurator.review.diff_text import Line, commit_title, file_diff, paint, umbrella_diff
from gitcurator.review.markdown import pull_request
from gitcurator.review.model import PassReview
from gitcurator.review.screen import review_text
from gitcurator.review.stored import pass_review, stored_catalogue
from gitcurator.skills.document import (
    SKILL_FILE,
    SKILL_FILE_LOWER,
    SkillParseError,
    parse_skill_md,
)
from gitcurator.store import Store
from gitcurator.store.commits import CommitId
from gitcurator.store.trees import file_at


def review(
    start: Path,
    run: str | None,
    *,
    diff: bool = False,
    markdown: bool = False,
    colour: bool = False,
) -> Result:
    """The pass `run` (default: the newest waiting for review): the screen, or the pull-request
    description with `markdown`; with `diff` the diffs follow, coloured when `colour`."""
    with open_repo(start) as repo:
        store = repo.store
        picked = pick_branch(store, run)
        catalogue = stored_catalogue(picked.doc) or branch_catalogue(store, repo.config, picked)
        warning = _merge_refusal(store, picked) if picked.status == PENDING else None
        notes = (warning_line(warning),) if warning else ()
        model = pass_review(
            picked.doc,
            branch=picked.branch,
            status=picked.status,
            base=picked.base.decode() if picked.base is not None else None,
            tip=picked.tip.decode(),
            catalogue=catalogue,
            merge_refusal=warning,
        )
        diffs = _diffs(store, repo.config, picked, model) if diff else []
    text = pull_request(model) if markdown else review_text(model)
    doc = model.to_json()
    if diff:
        doc["diff"] = paint(diffs, colour=False)
        text = paint([("context", line) for line in [*text.split("\n"), ""]] + diffs, colour)
    return Result(text=text, doc=doc, notes=notes)


def core_pager(start: Path) -> str | None:
    """git's `core.pager` setting for the repository holding `start` (the repository's, the
    user's or the system's), which git reads between $GIT_PAGER and $PAGER."""
    with open_repo(start) as repo:
        return repo.store.config_value("core", "pager")


def _diffs(store: Store, config: Config, picked: ReviewedBranch, model: PassReview) -> list[Line]:
    """Each commit of the pass in turn: an umbrella's SKILL.md against the bodies of what it
    absorbed (and its own, merged into an existing skill) at the base, then every other file
    it changed."""
    base = picked.base
    at_base = skill_files_at(store, config, base) if base is not None else {}
    budget = DiffBudget()

    def base_text(name: str) -> tuple[str, str] | None:
        path = at_base.get(name)
        data = _file(store, base, path) if base is not None and path else None
        if not path or data is None or not budget.take(data.decode("utf-8", "replace")):
            return None
        try:
            return path, parse_skill_md(data).body.lstrip("\n")
        except SkillParseError:
            return path, data.decode("utf-8", "replace")  # then the whole file is its body

    umbrellas = {u.name: u for u in model.umbrellas}
    lines: list[Line] = []
    for c in picked.commits:
        lines += commit_title(c.id.decode(), c.message.strip().split("\n", 1)[0])
        changes = commit_changes(store, c, budget)
        named = trailers.trailers(c.message).get(trailers.UMBRELLA, [])
        umbrella = umbrellas.get(named[0]) if len(named) == 1 else None
        if umbrella is not None:
            md = next(
                (
                    f"{umbrella.path}/{f}"
                    for f in (SKILL_FILE, SKILL_FILE_LOWER)
                    if _file(store, c.id, f"{umbrella.path}/{f}") is not None
                ),
                None,
            )
            if md is not None:
                # Each once: a crafted report may name one skill a thousand times.
                names = list(
                    dict.fromkeys(
                        ([umbrella.name] if umbrella.existing else []) + umbrella.absorbed
                    )
                )
                sources = [found for found in map(base_text, names) if found is not None]
                now = text_of(_file(store, c.id, md)) or ""
                lines += [*umbrella_diff(md, now, sources), ("context", "")]
                changes = [ch for ch in changes if ch.new_path != md]
        for change in changes:
            lines += file_diff(change)
        lines.append(("context", ""))
    return lines


def _file(store: Store, commit: CommitId, path: str) -> bytes | None:
    """A file of `commit`, or None when absent or when a fetch did not bring its object."""
    try:
        return file_at(store, commit, path)
    except KeyError:
        return None


def _merge_refusal(store: Store, picked: ReviewedBranch) -> str | None:
    """Why `merge` would refuse the branch, or None; an object missing from the repository
    (a fetch that did not bring it) is said, not an internal error."""
    return branch_warning(store, picked.branch)

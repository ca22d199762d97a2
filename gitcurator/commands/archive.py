"""`gitcurator archive NAME`: move a skill into .archive/ by hand, as one commit."""

from __future__ import annotations

from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.commands.moves import (
    Tip,
    commit_move,
    is_taken,
    library_prefix,
    record_archives,
    tip_of,
)
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Result, warning_line
from gitcurator.render import name_arg
from gitcurator.skills.document import ARCHIVE_DIR, SkillLocation
from gitcurator.skills.identity import identity
from gitcurator.store import trees
from gitcurator.store.interrupts import interrupts_deferred
from gitcurator.telemetry import ledger
from gitcurator.timeutil import format_time, moment_of


def archive(start: Path, name: str, *, now: str | None) -> Result:
    """Move a live skill into .archive/ by hand, as one commit, and record when."""
    moment = format_time(moment_of(now))
    with open_repo(start) as repo:
        tip = tip_of(repo)
        source = next((s for s in tip.skills if not s.archived and identity(s) == name), None)
        if source is None:
            raise CuratorError(f"no live skill named {name} (see `gitcurator list`)")
        record = ledger.load(repo.store).records.get(name)
        if record is not None and record.is_pinned:
            raise CuratorError(
                f"{name} is pinned; unpin it first (`gitcurator unpin {name_arg(name)}`)"
            )
        referrers = _live_referrers(repo, name)
        target = _archive_target(repo, tip, source)
        new_tree = trees.edit_tree(repo.store, tip.tree, [(source.folder, target)])
        message = (
            f"curator: archive {name} by hand\n\nMoved {source.folder} to {target}.\n\n"
            f"{trailers.ARCHIVED}: {name}\n{trailers.MANUAL}: archive\n"
        )
        with interrupts_deferred():  # the move and its archived_at go together
            moved = commit_move(
                repo, tip, new_tree, message, f"archive {name}", [source.folder, target]
            )
            warnings = record_archives(repo.store, {name: moment}, f"record the archive of {name}")
    # A name archived before keeps its folder; this copy went to a suffixed one, and only
    # its folder tells the two apart.
    back = name if target.rsplit("/", 1)[-1] == name else target
    referred: tuple[str, ...] = ()
    if referrers:
        # A pass would have kept it: say what now points at an archived skill.
        shown = ", ".join(referrers[:5]) + (
            f" and {len(referrers) - 5} more" if len(referrers) > 5 else ""
        )
        referred = (
            warning_line(
                f"{name} is referred to by {shown}; those references now name an archived "
                f"skill (`gitcurator refs {name_arg(name)}` lists them)"
            ),
        )
    return Result(
        text=f"archived {name} to {target} ({moved.commit[:12]}); "
        f"`gitcurator restore {name_arg(back)}` brings it back",
        notes=moved.notes + warnings + referred,
    )


def _live_referrers(repo: SkillsRepo, name: str) -> list[str]:
    """`path:line` of every live skill's or reference file's reference to `name`."""
    from gitcurator.commands.refs import library_references

    try:
        graph = library_references(repo)[0]
    except KeyError:
        # A reference file's blob missing (a partial clone) is no reason to refuse the move,
        # which needs only trees: the warning is what is given up.
        return []
    return sorted({r.where for r in graph.to(name) if r.live and r.source != name})


def _archive_target(repo: SkillsRepo, tip: Tip, source: SkillLocation) -> str:
    prefix = library_prefix(repo)
    base = f"{prefix}{ARCHIVE_DIR}/{source.folder[len(prefix) :]}"
    target, n = base, 1
    while is_taken(repo, tip, target):
        n += 1
        target = f"{base}-{n}"
    return target

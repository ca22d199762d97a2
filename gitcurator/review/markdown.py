"""`gitcurator review --markdown`: a pull-request description for a curator branch (pure), so
the review can happen on any forge the branch was pushed to."""

from __future__ import annotations

from gitcurator.render import plural
from gitcurator.review.model import Moved, PassReview, summary_counts
from gitcurator.review.screen import catalogue_change, folded_line

# Forges cap a description's length (GitHub at 65,536 characters): long tables are cut.
ROWS = 100


def pull_request(review: PassReview) -> str:
    """Title line, summary, catalogue cost, tables of what moves, refusals, merge and undo."""
    lines = [
        f"{title(review)}",
        "",
        f"Curator pass `{review.run_id}` as of {review.now}, "
        f"branch `{review.branch}` (base `{_short(review.base)}`).",
        "",
    ]
    lines += ["| state | before | after |", "|---|---:|---:|"]
    lines += [f"| {s} | {b} | {a} |" for s, b, a in summary_counts(review)]
    lines += [f"| **live** | **{review.live_before}** | **{review.live_after}** |", ""]
    lines.append(
        "**Catalogue** (what every prompt pays for the skill list): "
        + catalogue_change(review.catalogue_before, review.catalogue_after)
    )
    lines += _table("Archived", review.archived, archived=True)
    lines += _table("Marked stale", review.stale)
    lines += _table("Active again", review.reactivated)
    if review.umbrellas:
        lines += ["", f"## Umbrellas ({len(review.umbrellas)})", ""]
        lines += ["| umbrella | folder | absorbs | demoted | why |", "|---|---|---|---|---|"]
        for u in review.umbrellas:
            absorbed = ", ".join(folded_line(f) for f in u.folded if f.demoted_to is None)
            demoted = ", ".join(folded_line(f) for f in u.folded if f.demoted_to is not None)
            folder = f"`{u.path}`" + (" (existing)" if u.existing else " (new)")
            lines.append(
                f"| **{_cell(u.name)}** | {_cell(folder)} | {_cell(absorbed) or '–'} | "
                f"{_cell(demoted) or '–'} | {_cell(u.reason)} |"
            )
    if review.refused:
        lines += ["", f"## Refused ({len(review.refused)})", ""]
        lines += [f"- {what}: {reason}" for what, reason in review.refused]
    if review.left_alone:
        lines += ["", f"{plural(review.left_alone, 'skill')} left alone (see REPORT.md)."]
    lines += [
        "",
        "## Merge or undo",
        "",
        f"- review locally: `gitcurator review {review.run_id} --diff`",
        f"- merge: `gitcurator merge {review.run_id}` (or merge this pull request)",
        f"- undo after merging: `gitcurator rollback {review.run_id}`",
        f"- drop it: `git branch -D {review.branch}`",
        "",
    ]
    return "\n".join(lines)


def title(review: PassReview) -> str:
    """`curator: archive 5, mark 5 stale, fold 3 into 1 umbrella (run 20261101-120000)`."""
    parts = []
    if review.archived:
        parts.append(f"archive {len(review.archived)}")
    if review.stale:
        parts.append(f"mark {len(review.stale)} stale")
    if review.reactivated:
        parts.append(f"reactivate {len(review.reactivated)}")
    if review.umbrellas:
        folded = sum(len(u.folded) for u in review.umbrellas)
        parts.append(f"fold {folded} into {plural(len(review.umbrellas), 'umbrella')}")
    return f"curator: {', '.join(parts) or 'no changes'} (run {review.run_id})"


def _table(heading: str, moved: tuple[Moved, ...], *, archived: bool = False) -> list[str]:
    if not moved:
        return []
    lines = ["", f"## {heading} ({len(moved)})", ""]
    to = " → archived at" if archived else ""
    lines += [f"| skill | folder{to} | last activity | reason |", "|---|---|---|---|"]
    for m in moved[:ROWS]:
        folder = f"`{m.path}`" + (f" → `{m.archived_path}`" if archived and m.archived_path else "")
        lines.append(
            f"| {_cell(m.skill)} | {_cell(folder)} | {_cell(m.last_activity)} | {_cell(m.reason)} |"
        )
    if len(moved) > ROWS:
        lines += ["", f"…and {len(moved) - ROWS} more: the branch's REPORT.md lists them all."]
    return lines


def _cell(text: str) -> str:
    # A pipe or newline in a skill's name or a reason would break the table's row.
    return " ".join(text.split()).replace("|", "\\|")


def _short(commit: str | None) -> str:
    return commit[:12] if commit else "unknown"

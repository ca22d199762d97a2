"""`gitcurator review`: a pass in one screen, for a person at a terminal (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from gitcurator.lifecycle.catalogue_cost import CatalogueCost, change_text
from gitcurator.render import one_line, plural
from gitcurator.review.model import Folded, Moved, PassReview, summary_counts

# A pass may archive hundreds of skills: the screen shows the first of each kind.
SHOWN = 20
# run.json comes from a branch anyone may push: no stored text is longer on the screen.
LONGEST = 300


def catalogue_change(before: CatalogueCost | None, after: CatalogueCost | None) -> str:
    """`32 skills, 940 tokens → 27 skills, 790 tokens (−16%) (estimate)`, as REPORT.md says it."""
    if before is None or after is None:
        return "not known"
    return flat(change_text({"before": before.as_doc(), "after": after.as_doc()}))


def folded_line(f: Folded) -> str:
    """`pdf-extract-forms 98%`, or with where a demoted skill went."""
    kept = f" {f.retention:.0%}" if f.retention is not None else ""
    where = f" → {flat(f.demoted_to)}" if f.demoted_to else ""
    return f"{flat(f.skill)}{kept}{where}"


def flat(text: str) -> str:
    """Stored text (a name, a path, a reason) on one line and at most LONGEST characters: a
    newline in it could otherwise forge a line of the screen."""
    cut = text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"
    return one_line(cut)


def first(items: Sequence[str], shown: int = SHOWN) -> str:
    """`a, b, c and 7 more`: the first `shown` of a list that may be long."""
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def review_text(review: PassReview) -> str:
    """The screen: what the pass changes and why, then how to go on."""
    lines = [
        f"pass {review.run_id} at {review.now}: {review.status} on {review.branch}",
        f"base {_short(review.base)}, tip {_short(review.tip)}",
        "",
        f"  {'state':<10}{'before':>8}{'after':>8}",
    ]
    counts = summary_counts(review)
    lines += [f"  {flat(s):<10}{b:>8}{a:>8}" for s, b, a in counts[:SHOWN]]
    lines += _more(len(counts))
    lines.append(f"  {'live':<10}{review.live_before:>8}{review.live_after:>8}")
    lines += ["", "catalogue: " + catalogue_change(review.catalogue_before, review.catalogue_after)]
    lines += _moves("archived", review.archived, archived=True)
    lines += _moves("stale", review.stale)
    lines += _moves("active again", review.reactivated)
    if review.umbrellas:
        lines += ["", f"umbrellas ({len(review.umbrellas)})"]
        for u in review.umbrellas[:SHOWN]:
            kind = "merged into the existing" if u.existing else "new"
            lines.append(f"  {flat(u.name)} ({kind} {flat(u.path)}): {flat(u.reason)}")
            absorbed = [folded_line(f) for f in u.folded if f.demoted_to is None]
            demoted = [folded_line(f) for f in u.folded if f.demoted_to is not None]
            if absorbed:
                lines.append(f"    absorbs: {first(absorbed)}")
            if demoted:
                lines.append(f"    demoted: {first(demoted)}")
        lines += _more(len(review.umbrellas))
    if review.refused:
        lines += ["", f"refused ({len(review.refused)})"]
        lines += [f"  {flat(what)}: {flat(reason)}" for what, reason in review.refused[:SHOWN]]
        lines += _more(len(review.refused))
    if review.kept:
        lines += ["", f"kept, referred to ({len(review.kept)})"]
        lines += [f"  {flat(skill)}: {flat(reason)}" for skill, reason in review.kept[:SHOWN]]
        lines += _more(len(review.kept))
    if review.restores:
        lines += ["", f"proposed back ({len(review.restores)}), restored on merge"]
        for r in review.restores[:SHOWN]:
            lines.append(
                f"  {flat(r.skill)} ({flat(r.source)} → {flat(r.target)}): {flat(r.reason)}"
            )
        lines += _more(len(review.restores))
    if review.left_alone:
        lines += ["", f"left alone: {plural(review.left_alone, 'skill')} (see the report)"]
    lines += ["", *next_steps(review)]
    return "\n".join(lines)


def next_steps(review: PassReview) -> list[str]:
    """What to do after reading the review."""
    if review.status == "rolled back":
        return ["it was rolled back: `gitcurator log` says when"]
    if review.status != "pending review":
        return [f"undo it with `gitcurator rollback {review.run_id}`"]
    if review.merge_refusal:
        return [
            f"diffs: `gitcurator review {review.run_id} --diff`",
            "`gitcurator merge` refuses this branch (the warning says why): no pass wrote it all",
            f"drop: `git branch -D {review.branch}`",
        ]
    return [
        f"diffs: `gitcurator review {review.run_id} --diff`",
        f"accept: `gitcurator merge {review.run_id}` (undo later with "
        f"`gitcurator rollback {review.run_id}`)",
        f"drop: `git branch -D {review.branch}`",
    ]


def _moves(title: str, moved: tuple[Moved, ...], *, archived: bool = False) -> list[str]:
    if not moved:
        return []
    lines = ["", f"{title} ({len(moved)})"]
    for m in moved[:SHOWN]:
        where = f" → {flat(m.archived_path)}" if archived and m.archived_path else ""
        lines.append(f"  {flat(m.skill)} ({flat(m.path)}{where})")
        # The lifecycle's reasons name the last activity; say it when one does not.
        known = m.last_activity in m.reason or m.last_activity.startswith("never used")
        said = "" if known else f"; last activity {flat(m.last_activity)}"
        lines.append(f"    {flat(m.reason)}{said}")
    return lines + _more(len(moved))


def _more(count: int) -> list[str]:
    if count <= SHOWN:
        return []
    return [f"  and {count - SHOWN} more (--json lists them all)"]


def _short(commit: str | None) -> str:
    return commit[:12] if commit else "unknown"

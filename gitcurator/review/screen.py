"""`gitcurator review`: a pass in one screen, for a person at a terminal (pure)."""

from __future__ import annotations

from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.render import plural
from gitcurator.review.model import Folded, Moved, PassReview, summary_counts

# A pass may archive hundreds of skills: the screen shows the first of each kind.
SHOWN = 20


def catalogue_change(before: CatalogueCost | None, after: CatalogueCost | None) -> str:
    """`32 skills, 1,204 tokens → 27 skills, 1,010 tokens (-194, -16%; o200k_base)`."""
    if before is None or after is None:
        return "not known"
    delta = after.tokens - before.tokens
    share = f", {delta / before.tokens:+.0%}" if before.tokens else ""
    counted = before.tokenizer if before.tokenizer == after.tokenizer else "mixed tokenizers"
    return (
        f"{plural(before.skills, 'skill')}, {before.tokens:,} tokens → "
        f"{plural(after.skills, 'skill')}, {after.tokens:,} tokens ({delta:+,}{share}; {counted})"
    )


def folded_line(f: Folded) -> str:
    """`pdf-extract-forms 98%`, or with where a demoted skill went."""
    kept = f" {f.retention:.0%}" if f.retention is not None else ""
    where = f" → {f.demoted_to}" if f.demoted_to else ""
    return f"{f.skill}{kept}{where}"


def review_text(review: PassReview) -> str:
    """The screen: what the pass changes and why, then how to go on."""
    lines = [
        f"pass {review.run_id} at {review.now}: {review.status} on {review.branch}",
        f"base {_short(review.base)}, tip {_short(review.tip)}",
        "",
        f"  {'state':<10}{'before':>8}{'after':>8}",
    ]
    lines += [f"  {s:<10}{b:>8}{a:>8}" for s, b, a in summary_counts(review)]
    lines.append(f"  {'live':<10}{review.live_before:>8}{review.live_after:>8}")
    lines += ["", "catalogue: " + catalogue_change(review.catalogue_before, review.catalogue_after)]
    lines += _moves("archived", review.archived, archived=True)
    lines += _moves("stale", review.stale)
    lines += _moves("active again", review.reactivated)
    if review.umbrellas:
        lines += ["", f"umbrellas ({len(review.umbrellas)})"]
        for u in review.umbrellas:
            kind = "merged into the existing" if u.existing else "new"
            lines.append(f"  {u.name} ({kind} {u.path}): {u.reason}")
            absorbed = [folded_line(f) for f in u.folded if f.demoted_to is None]
            demoted = [folded_line(f) for f in u.folded if f.demoted_to is not None]
            if absorbed:
                lines.append(f"    absorbs: {', '.join(absorbed)}")
            if demoted:
                lines.append(f"    demoted: {', '.join(demoted)}")
    if review.refused:
        lines += ["", f"refused ({len(review.refused)})"]
        lines += [f"  {what}: {reason}" for what, reason in review.refused]
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
        where = f" → {m.archived_path}" if archived and m.archived_path else ""
        lines.append(f"  {m.skill} ({m.path}{where})")
        # The lifecycle's reasons name the last activity; say it when one does not.
        known = m.last_activity in m.reason or m.last_activity.startswith("never used")
        lines.append(f"    {m.reason}" + ("" if known else f"; last activity {m.last_activity}"))
    if len(moved) > SHOWN:
        lines.append(f"  and {len(moved) - SHOWN} more (--json and --markdown list them all)")
    return lines


def _short(commit: str | None) -> str:
    return commit[:12] if commit else "unknown"

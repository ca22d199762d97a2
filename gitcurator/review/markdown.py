"""`gitcurator review --markdown`: a pull-request description for a curator branch (pure), so
the review can happen on any forge the branch was pushed to."""

from __future__ import annotations

import re

from gitcurator.render import plural
from gitcurator.review.model import Folded, Moved, PassReview, summary_counts
from gitcurator.review.screen import LONGEST, catalogue_change

# Forges cap a description's length (GitHub at 65,536 characters): long tables are cut.
ROWS = 100
# Names listed in one cell (an umbrella may absorb many).
NAMES = 20
# What can start markup inside a line (CommonMark lets a backslash escape any ASCII
# punctuation): `_` only at a word's edge, where it can open emphasis.
_MARKUP = re.compile(r"[\\`*\[\]<>|!&~#]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")


def pull_request(review: PassReview) -> str:
    """Title line, summary, catalogue cost, tables of what moves, refusals, merge and undo."""
    lines = [
        f"{title(review)}",
        "",
        f"Curator pass `{review.run_id}` as of {review.now}, "
        f"branch `{review.branch}` (base `{_short(review.base)}`).",
        "",
    ]
    if review.merge_refusal:
        # The description is read on a forge, far from the warning on the terminal.
        lines += [f"> **Warning:** {_text(review.merge_refusal)}", ""]
    lines += ["| state | before | after |", "|---|---:|---:|"]
    counts = summary_counts(review)
    # A lifecycle has a handful of states; a crafted report may name thousands.
    lines += [f"| {_text(s)} | {b} | {a} |" for s, b, a in counts[:NAMES]]
    if len(counts) > NAMES:
        lines.append(f"| and {len(counts) - NAMES} more states | | |")
    lines += [f"| **live** | **{review.live_before}** | **{review.live_after}** |", ""]
    lines.append(
        "**Catalogue** (what every prompt pays for the skill list): "
        + _text(catalogue_change(review.catalogue_before, review.catalogue_after))
    )
    lines += _table("Archived", review.archived, archived=True)
    lines += _table("Marked stale", review.stale)
    lines += _table("Active again", review.reactivated)
    if review.umbrellas:
        lines += ["", f"## Umbrellas ({len(review.umbrellas)})", ""]
        lines += ["| umbrella | folder | absorbs | demoted | why |", "|---|---|---|---|---|"]
        for u in review.umbrellas[:ROWS]:
            absorbed = _names([f for f in u.folded if f.demoted_to is None])
            demoted = _names([f for f in u.folded if f.demoted_to is not None])
            folder = _code(u.path) + (" (existing)" if u.existing else " (new)")
            lines.append(
                f"| **{_text(u.name)}** | {folder} | {absorbed} | {demoted} | {_text(u.reason)} |"
            )
        lines += _cut(len(review.umbrellas))
    if review.refused:
        lines += ["", f"## Refused ({len(review.refused)})", ""]
        lines += [f"- {_text(what)}: {_text(reason)}" for what, reason in review.refused[:ROWS]]
        lines += _cut(len(review.refused))
    if review.kept:
        lines += ["", f"## Kept: referred to ({len(review.kept)})", ""]
        lines += [f"- {_text(skill)}: {_text(reason)}" for skill, reason in review.kept[:ROWS]]
        lines += _cut(len(review.kept))
    if review.restores:
        lines += ["", f"## Proposed back ({len(review.restores)})", ""]
        lines += [
            f"- {_text(r.skill)}: {_code(r.source)} → {_code(r.target)}: {_text(r.reason)}"
            for r in review.restores[:ROWS]
        ]
        lines += _cut(len(review.restores))
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
    if review.restores:
        parts.append(f"restore {len(review.restores)}")
    return f"curator: {', '.join(parts) or 'no changes'} (run {review.run_id})"


def _table(heading: str, moved: tuple[Moved, ...], *, archived: bool = False) -> list[str]:
    if not moved:
        return []
    lines = ["", f"## {heading} ({len(moved)})", ""]
    to = " → archived at" if archived else ""
    lines += [f"| skill | folder{to} | last activity | reason |", "|---|---|---|---|"]
    for m in moved[:ROWS]:
        to_path = f" → {_code(m.archived_path)}" if archived and m.archived_path else ""
        folder = _code(m.path) + to_path
        lines.append(
            f"| {_text(m.skill)} | {folder} | {_text(m.last_activity)} | {_text(m.reason)} |"
        )
    return lines + _cut(len(moved))


def _cut(count: int) -> list[str]:
    if count <= ROWS:
        return []
    return ["", f"…and {count - ROWS} more: the branch's REPORT.md lists them all."]


def _names(folded: list[Folded]) -> str:
    """`a 98%, b → path` for one cell, the first NAMES of them."""
    shown = []
    for f in folded[:NAMES]:
        kept = f" {f.retention:.0%}" if f.retention is not None else ""
        where = f" → {_text(f.demoted_to)}" if f.demoted_to else ""
        shown.append(f"{_text(f.skill)}{kept}{where}")
    more = f" and {len(folded) - NAMES} more" if len(folded) > NAMES else ""
    return ", ".join(shown) + more or "–"


def _flat(text: str) -> str:
    # A newline in a stored name or reason would end the row or start a heading or a list.
    flat = " ".join(text.split())
    return flat if len(flat) <= LONGEST else flat[: LONGEST - 1] + "…"


def _text(text: str) -> str:
    """Stored text as inert Markdown on one line: nothing in it a link, an image, HTML, a code
    span or a table's cell border (a pull-request description must not be injectable)."""
    return _MARKUP.sub(lambda m: "\\" + m.group(), _flat(text))


def _code(text: str) -> str:
    """Stored text as one code span in a table cell: fenced by more backticks than any run in
    it, its pipes escaped (GFM splits cells on them before it reads code spans)."""
    flat = _flat(text).replace("|", "\\|")
    if not flat:
        return "–"
    fence = "`" * (max(map(len, re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat[0] == "`" or flat[-1] == "`" else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _short(commit: str | None) -> str:
    return commit[:12] if commit else "unknown"

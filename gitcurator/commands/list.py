"""`gitcurator list`: the skills with state, origin, pin and usage.

A plain `list --json` is answered first from the text the last full run kept
(`commands/list_quick`: no dulwich, no PyYAML); only when that does not hold does it open the
repository, and then it keeps the text for the next run.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator.collector import paused
from gitcurator.output import JsonText, Result
from gitcurator.render import one_line

if TYPE_CHECKING:
    from gitcurator.commands.list_quick import Seen
    from gitcurator.commands.skill_rows import LoadedRows
    from gitcurator.config import CuratorPolicy
    from gitcurator.library import SkillsRepo
    from gitcurator.lifecycle.inventory import SkillRow


def list_skills(
    start: Path, *, state: str | None, origin: str | None, now: str | None, as_json: bool = False
) -> Result:
    """The skills (filtered by state and origin) as JSON rows and, unless `as_json`, a table."""
    with paused():  # a listing reads the library and nothing else (collector.py)
        return _listed(start, state=state, origin=origin, now=now, as_json=as_json)


def _listed(
    start: Path, *, state: str | None, origin: str | None, now: str | None, as_json: bool
) -> Result:
    seen = None
    if as_json and not state and not origin and now is None:
        from gitcurator.commands.list_quick import quick_list

        quick, seen = quick_list(start)
        if quick is not None:
            return quick
    from gitcurator.commands.library_notes import NestedWalk, hidden_notes
    from gitcurator.commands.skill_rows import big_library, load_kept_rows
    from gitcurator.library import open_repo

    with open_repo(start) as repo, NestedWalk(repo.store, big_library(repo)) as walk:
        loaded = load_kept_rows(repo, now)
        kept = (*loaded.warnings, *hidden_notes(loaded.hidden, repo.config.skills_dir))
        nested = walk.notes(loaded.links)
        doc: object = None if seen is None else _kept_document(repo, loaded, seen, kept)
    shown = [
        i
        for i, r in enumerate(loaded.rows)
        if (not state or r.state == state) and (not origin or r.origin == origin)
    ]
    rows = [loaded.rows[i] for i in shown]
    empty = "no skills match" if (state or origin) else "no skills yet"
    # The table of 10,000 rows costs 0.07 s that --json never shows.
    text = "" if as_json else table(rows) if rows else empty
    if doc is None:
        doc = _document(loaded, shown, as_json)
    return Result(text=text, doc=doc, notes=(*kept, *nested))


def _document(loaded: LoadedRows, shown: list[int], as_json: bool) -> object:
    """The rows' JSON document; as the text json.dumps makes of it when the rows cache kept
    each row's text (10,000 rows: 0.06 s of to_json and dumps down to a join)."""
    texts = loaded.texts
    if not as_json or texts is None:
        return [loaded.rows[i].to_json() for i in shown]
    parts = (texts[i][0] + f'"{loaded.rows[i].state}"' + texts[i][1] for i in shown)
    return JsonText("[" + ", ".join(parts) + "]")


def _kept_document(
    repo: SkillsRepo, loaded: LoadedRows, seen: Seen, notes: tuple[str, ...]
) -> JsonText | None:
    """Every row's JSON as one text, kept for list_quick when the rows hold for their key
    (None when they cannot be kept: then the document is made as usual)."""
    from gitcurator.commands.list_quick import filled, keep_text
    from gitcurator.lifecycle.rules import ACTIVE, ARCHIVED

    key, texts, anchors = loaded.key, loaded.texts, loaded.anchors
    if key is None or key.parts is None or texts is None or len(anchors) != len(texts):
        return None
    fixed = [None if a is not None else r.state for r, a in zip(loaded.rows, anchors, strict=True)]
    if not set(fixed) <= {None, ACTIVE, ARCHIVED}:
        return None  # not a state rows_at gives a row without an anchor: nothing to keep
    body = keep_text(
        seen, key.parts, repo.root, loaded.newest, texts, fixed, anchors,
        stale_from(repo.config.curator), notes, loaded.links,
    )  # fmt: skip
    states = [r.state for r, a in zip(loaded.rows, anchors, strict=True) if a is not None]
    return JsonText(filled(body, states))


def stale_from(policy: CuratorPolicy) -> int | None:
    """The least idle time, in microseconds, at which `inventory.rows_at` judges a row stale
    (None: never), found by asking rows_at itself: its rule keeps one home."""
    from gitcurator.lifecycle.inventory import SkillRow, row_values, rows_at
    from gitcurator.lifecycle.rules import ACTIVE, STALE

    probe = row_values(
        SkillRow(
            "p",
            "p",
            ACTIVE,
            "agent",
            False,
            True,
            False,
            0,
            0,
            0,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        )
    )
    epoch = datetime(1970, 1, 1, tzinfo=UTC)

    def stale(idle: int) -> bool:
        # At the epoch, a row anchored `idle` microseconds before it.
        return rows_at([probe], [-idle], policy, epoch)[0].state == STALE

    low, high = -(2**62), 2**62  # far beyond any two times from 1970 to 9999 apart
    if not stale(high):
        return None
    if stale(low):
        return low
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if stale(middle) else (middle, high)
    return high


def table(rows: list[SkillRow]) -> str:
    """One line per row under a header, columns padded to their widest cell."""
    header = ("NAME", "STATE", "ORIGIN", "PIN", "USES", "VIEWS", "PATCHES", "LAST ACTIVE")
    body = [
        (
            one_line(r.name),  # as printed: a byte that is not UTF-8 shows as `\xe9`, 4 wide
            f"{r.state} (wanted {r.wanted_count})" if r.wanted_count else r.state,
            r.origin,
            "yes" if r.pinned else "",
            str(r.use_count),
            str(r.view_count),
            str(r.patch_count),
            (r.last_activity_at or "-")[:10],
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *body]
    )

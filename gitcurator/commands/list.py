"""`gitcurator list`: the skills with state, origin, pin and usage."""

from __future__ import annotations

from pathlib import Path

from gitcurator.commands.library_notes import hidden_notes, nested_notes
from gitcurator.commands.skill_rows import LoadedRows, load_kept_rows
from gitcurator.library import open_repo
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.output import JsonText, Result


def list_skills(
    start: Path, *, state: str | None, origin: str | None, now: str | None, as_json: bool = False
) -> Result:
    """The skills (filtered by state and origin) as JSON rows and, unless `as_json`, a table."""
    with open_repo(start) as repo:
        loaded = load_kept_rows(repo, now)
        skills_dir = repo.config.skills_dir
        nested = nested_notes(repo.store, loaded.links)
    shown = [
        i
        for i, r in enumerate(loaded.rows)
        if (not state or r.state == state) and (not origin or r.origin == origin)
    ]
    rows = [loaded.rows[i] for i in shown]
    empty = "no skills match" if (state or origin) else "no skills yet"
    # The table of 10,000 rows costs 0.07 s that --json never shows.
    text = "" if as_json else table(rows) if rows else empty
    notes = (*loaded.warnings, *hidden_notes(loaded.hidden, skills_dir), *nested)
    return Result(text=text, doc=_document(loaded, shown, as_json), notes=notes)


def _document(loaded: LoadedRows, shown: list[int], as_json: bool) -> object:
    """The rows' JSON document; as the text json.dumps makes of it when the rows cache kept
    each row's text (10,000 rows: 0.06 s of to_json and dumps down to a join)."""
    texts = loaded.texts
    if not as_json or texts is None:
        return [loaded.rows[i].to_json() for i in shown]
    parts = (texts[i][0] + f'"{loaded.rows[i].state}"' + texts[i][1] for i in shown)
    return JsonText("[" + ", ".join(parts) + "]")


def table(rows: list[SkillRow]) -> str:
    """One line per row under a header, columns padded to their widest cell."""
    header = ("NAME", "STATE", "ORIGIN", "PIN", "USES", "VIEWS", "PATCHES", "LAST ACTIVE")
    body = [
        (
            r.name,
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

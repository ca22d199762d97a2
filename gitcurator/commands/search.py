"""`gitcurator search QUERY`: skills ranked by wording; archived ones too with `--archived`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcurator.errors import UsageError
from gitcurator.library import open_store
from gitcurator.output import Result
from gitcurator.render import name_arg, one_line, plural, utf8_text
from gitcurator.search.index_cache import library_index
from gitcurator.search.ranking import Hit
from gitcurator.umbrella.model_errors import shorten


def search(start: Path, query: str, *, archived: bool = False, limit: int = 10) -> Result:
    """The skills of the default branch whose wording best matches `query`."""
    if not query.strip():
        raise UsageError(
            "the query is empty; give words saying what the skill does, "
            "e.g. `gitcurator search 'extract tables from pdf'`"
        )
    if limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    store = open_store(start)
    try:
        found = library_index(store, live_only=not archived)
        # No live skill: whether the archive holds any says what to do next.
        every = library_index(store).index.size if found.index.size == 0 and not archived else 0
    finally:
        store.close()
    index = found.index
    words = index.query_words(query)
    hits = index.search(query, limit, archived=archived) if words else []
    doc: dict[str, Any] = {
        "query": query,
        "words": words,
        "archived_included": archived,
        "branch": found.branch,
        "tree": found.tree,
        "skills": index.size,
        "results": [_hit_doc(h) for h in hits],
    }
    if index.size == 0 and every:
        text = (
            f"no live skills on {found.branch}; {plural(every, 'skill')} archived "
            "(add --archived to search them)"
        )
    elif index.size == 0:
        text = f"no skills on {found.branch} yet; nothing to search (add one, then `commit`)"
    elif not words:
        return Result(
            code=1,
            text=(
                f"{shorten(query, 80)!r} holds only stop words or short tokens, which match "
                "nothing; "
                "search for words that say what the skill does"
            ),
            doc=doc,
        )
    elif not hits:
        where = "live or archived skill" if archived else "live skill"
        hint = "" if archived else " (add --archived to search the archive too)"
        said = shorten(" ".join(words), 80)
        text = f"no {where} of {plural(index.size, 'skill')} matches {said}{hint}"
    else:
        text = _text(hits)
    return Result(text=text, doc=doc)


def restore_command(hit: Hit) -> str | None:
    """The command that brings an archived hit back; None for a folder whose name is not
    UTF-8 (restore refuses it, and no shell could type the name as shown)."""
    folder = hit.folder.rsplit("/", 1)[-1]
    return f"gitcurator restore {name_arg(folder)}" if utf8_text(folder) else None


def _restore_hint(hit: Hit) -> str:
    command = restore_command(hit)
    if command is None:
        return "its folder's name is not UTF-8: rename it with `git mv`, then restore it"
    return f"`{command}` brings it back"


def _hit_doc(hit: Hit) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": hit.name,
        "path": hit.folder,
        "description": hit.description,
        "score": hit.score,
        "archived": hit.archived,
    }
    if hit.archived:
        doc["restore"] = restore_command(hit)
    return doc


def _text(hits: list[Hit]) -> str:
    shown = [one_line(h.name) for h in hits]  # as printed: `\xe9` is 4 wide, not 1
    width = max(map(len, shown))
    lines = []
    for h, name in zip(hits, shown, strict=True):
        about = h.description.splitlines()[0] if h.description.strip() else "(no description)"
        lines.append(f"{h.score:.3f}  {name.ljust(width)}  {about[:100]}")
        if h.archived:
            lines.append(f"       archived at {h.folder}; {_restore_hint(h)}")
    return "\n".join(lines)

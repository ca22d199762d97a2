"""The hot path's cache of the names `record` accepts, for one HEAD (stdlib only).

`names.tsv` starts with `head <commit> notes <notes commit> archived` (absorbed names come
from the notes, which plain git can move while HEAD stays), then one line per name: the name
alone when it is the skill's own, else `name<TAB>skill`; a name of an archived skill is
`name<TAB>/skill` (no skill name holds a '/'), so a use of it is kept as `wanted`.
telemetry.names builds the map; this module only keeps it, so `record` never loads dulwich
while HEAD and the notes stay where they were.
"""

from __future__ import annotations

import os

from gitcurator.statefiles import NAMES_CACHE, write_cache
from gitcurator.telemetry.gitdir import read_ref

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# Marks an archived skill in the map's values (the cache's second column): `/skill`.
ARCHIVED_MARK = "/"
# store.notes.NOTES_REF, read as git stores it (the hot path does not load dulwich).
_NOTES_REF = "refs/notes/gitcurator"
# `notes` of write/rehead when the caller did not say which notes commit the names follow.
READ_NOW: object = object()


def archived(target: str) -> str | None:
    """The archived skill a looked-up value names, or None when it is a live skill's."""
    return target[1:] if target.startswith(ARCHIVED_MARK) else None


def skill_of(target: str) -> str:
    """The skill a looked-up value names, archived or live."""
    return target.removeprefix(ARCHIVED_MARK)


def lookup(
    state: str | os.PathLike[str], head: str | None, names: list[str]
) -> dict[str, str] | None:
    """Each asked name's skill from the cache for commit `head` (unknown names are left out;
    an archived skill is `/skill`, see `archived`), or None if the cache is for another commit.

    The cache is searched as text rather than parsed: at 10,000 skills building the whole
    dict costs ~3 ms a call, finding a few lines ~0.1 ms.
    """
    try:
        with open(os.path.join(state, NAMES_CACHE), encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError):
        return None  # no cache, or a damaged one: the caller rebuilds it
    if not text.startswith(_first_line(state, head)):
        return None
    found: dict[str, str] = {}
    for name in names:
        if not name or any(c in name for c in "\t\n\r"):
            continue  # never a skill name; it must not match across lines of the cache
        needle = f"\n{name}"
        at = text.find(needle)
        while at != -1:
            end = at + len(needle)
            after = text[end : end + 1]  # "" at the end of a cache cut short
            if after == "\n":
                found[name] = name
                break
            if after == "\t":
                stop = text.find("\n", end)
                if stop != -1:
                    found[name] = text[end + 1 : stop]
                break
            at = text.find(needle, end)
    return found


def write(state: Path, head: str | None, names: dict[str, str], notes: object = READ_NOW) -> str:
    """Cache the name → skill map for commit `head` and notes commit `notes` (the one the
    absorbed names were read from; by default the notes ref now), atomically replaced;
    archived skills are marked `/skill` in it (telemetry.names.cached_names). Returns the
    digest of the lines after the HEAD line (what `rehead` checks)."""
    body = "".join(
        (name if target == name else f"{name}\t{target}") + "\n"
        for name, target in sorted(names.items())
    )
    write_cache(state / NAMES_CACHE, _first_line(state, head, notes) + body)
    return _digest(body)


def rehead(
    state: Path, head: str | None, digest: object, notes: object = READ_NOW
) -> tuple[dict[str, str], str] | None:
    """Keep the cached names for commit `head` when the lines after the HEAD line are the
    ones whose digest is `digest` (from `write`); their map and digest, else None."""
    try:
        text = (state / NAMES_CACHE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    first, newline, body = text.partition("\n")
    if not newline or not first.startswith("head ") or _digest(body) != digest:
        return None
    names: dict[str, str] = {}
    for line in body.splitlines():
        name, _tab, target = line.partition("\t")
        names[name] = target or name
    write_cache(state / NAMES_CACHE, _first_line(state, head, notes) + body)
    return names, _digest(body)


def _digest(body: str) -> str:
    import hashlib

    return hashlib.sha1(body.encode("utf-8", "surrogatepass")).hexdigest()


def _first_line(state: str | os.PathLike[str], head: str | None, notes: object = READ_NOW) -> str:
    # `archived`: a cache from before archived names were marked is not read (its archived
    # names would count as uses); it is rebuilt. The state folder sits in the common dir.
    if notes is READ_NOW:
        notes = read_ref(os.path.dirname(state), _NOTES_REF)
    return f"head {head} notes {notes} archived\n"


def forget(state: Path) -> None:
    """Drop the cache: the next `record` rebuilds it (a changed absorbed_into re-points names)."""
    (state / NAMES_CACHE).unlink(missing_ok=True)

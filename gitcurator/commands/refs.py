"""`gitcurator refs NAME`: what refers to a skill, and what it refers to (as committed)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from gitcurator.curation.reference_cache import tree_references
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Result
from gitcurator.references.graph import Reference, ReferenceGraph
from gitcurator.render import plural
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.skills.identity import identity
from gitcurator.telemetry import notes_records
from gitcurator.telemetry.events import invalid_name_hint
from gitcurator.telemetry.records import absorbed_of


def library_references(
    repo: SkillsRepo,
) -> tuple[ReferenceGraph, list[SkillLocation], dict[str, str]]:
    """The reference graph of HEAD, its skills, and absorbed names -> their umbrellas."""
    store, config = repo.store, repo.config
    entries = store.head_entries()
    locations = find_skills(entries, config.skills_dir, config.include)
    records = notes_records.load_notes(store).records
    aliases = absorbed_of(records)
    graph = tree_references(store, config, entries, locations, aliases)
    return graph, locations, aliases


def refs(start: Path, name: str) -> Result:
    """The references to and from `name` (live, archived, or a name absorbed into an
    umbrella); an unknown name is an error naming the close ones."""
    with open_repo(start) as repo:
        graph, locations, aliases = library_references(repo)
    live = {identity(loc): loc.folder for loc in locations if not loc.archived}
    archived = {identity(loc): loc.folder for loc in locations if loc.archived}
    path: str | None
    if name in live:
        state, path = "live", live[name]
    elif name in aliases:
        state, path = "absorbed", archived.get(name)
    elif name in archived:
        state, path = "archived", archived[name]
    else:
        known = sorted({*live, *archived, *aliases})
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else " (see `gitcurator list`)"
        raise CuratorError(
            f"no skill named {name} in this repository{hint}" + invalid_name_hint([name])
        )
    to, of = graph.to(name), graph.of(name) if state != "absorbed" else []
    states = {**{n: "archived" for n in archived}, **{n: "live" for n in live}}
    doc: dict[str, Any] = {
        "name": name,
        "state": state,
        "path": path,
        "absorbed_into": aliases.get(name) if state == "absorbed" else None,
        "referenced_by": [r.to_json() for r in to],
        "references": [
            {**r.to_json(), "target_state": _state(r.target, states, aliases)} for r in of
        ],
        "skipped": list(graph.notes),
    }
    return Result(text=_text(doc, to, of, states, aliases), doc=doc, notes=graph.notes)


def _state(name: str, states: dict[str, str], aliases: dict[str, str]) -> str:
    if name in states and states[name] == "live":
        return "live"
    if name in aliases:
        return "absorbed"
    return states.get(name, "absent")


def _text(
    doc: dict[str, Any],
    to: list[Reference],
    of: list[Reference],
    states: dict[str, str],
    aliases: dict[str, str],
) -> str:
    name = doc["name"]
    if doc["state"] == "absorbed":
        head = f"{name}: absorbed into {doc['absorbed_into']}"
    else:
        head = f"{name}: {doc['state']} skill at {doc['path']}"
    lines = [
        head,
        f"referred to by {plural(len(to), 'reference')}:" if to else "referred to by nothing",
    ]
    for r in to:
        who = f"skill {r.source}" + ("" if r.live else " (archived)") if r.from_skill else "file"
        lines.append(f"  {r.where}  {who}  {r.kind}: {r.text}")
    if doc["state"] != "absorbed":
        lines.append(f"refers to {plural(len(of), 'skill')}:" if of else "refers to nothing")
        for r in of:
            state = _state(r.target, states, aliases)
            note = "" if state == "live" else f" ({state})"
            lines.append(f"  {r.where}  {r.target}{note}  {r.kind}: {r.text}")
    return "\n".join(lines)

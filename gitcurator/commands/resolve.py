"""`gitcurator resolve NAME`: the live skill a name points to now."""

from __future__ import annotations

from pathlib import Path

from gitcurator.errors import CuratorError
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.render import name_arg
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity
from gitcurator.telemetry.events import invalid_name_hint
from gitcurator.telemetry.names import known_names


def resolve(start: Path, name: str) -> Result:
    """Follow frontmatter names and absorbed names to the skill that answers for `name`."""
    with open_repo(start) as repo:
        target = known_names(repo).get(name)
        locations = find_skills(
            repo.store.head_entries(), repo.config.skills_dir, repo.config.include
        )
    if target is None:
        raise CuratorError(
            f"no skill named {name} in this repository (see `gitcurator list`)"
            + invalid_name_hint([name])
        )
    live = next((loc for loc in locations if identity(loc) == target and not loc.archived), None)
    archived = next((loc for loc in locations if identity(loc) == target and loc.archived), None)
    found = live or archived
    doc = {
        "name": name,
        "resolves_to": target,
        "path": found.folder if found else None,
        "state": "live" if live else "archived" if archived else "unknown",
        "via": "itself" if target == name else "alias",
    }
    if live:
        text = target if target == name else f"{name} -> {target} ({live.folder})"
    else:
        text = (
            f"{name} -> {target}, which is archived at {doc['path']}; "
            f"`gitcurator restore {name_arg(target)}` brings it back"
        )
    return Result(text=text, doc=doc)

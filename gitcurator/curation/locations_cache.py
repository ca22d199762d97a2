"""The skills' locations in a stored tree (find_skills of its files), kept by tree id.

find_skills walks every path of the tree: 50-70 ms a pass at 10,000 skills, for a listing
that is a function of the tree and two config values alone. It is kept under the tree's id,
the skills folder and the `include:` globs; anything else in the file (another tree, a
damaged or forged file, a location naming no file of the tree, a listing that does not match
the digest kept beside it: a flag flipped or an entry dropped by hand) is ignored and walked
again.
A dry run writes nothing (statefiles.read_only).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.statefiles import LOCATIONS_CACHE, read_cache_json, write_cache_json
from gitcurator.store import ObjectID, Store

_FORMAT = 2  # raised whenever what find_skills finds changes


def tree_locations(
    store: Store,
    tree: ObjectID,
    entries: Mapping[str, tuple[ObjectID, int]],
    skills_dir: str,
    include: Sequence[str],
) -> list[SkillLocation]:
    """find_skills(entries, skills_dir, include), `entries` being the files of `tree`."""
    key = _key(tree, skills_dir, include)
    path = store.state_dir() / LOCATIONS_CACHE
    opening = b'{"key":' + json.dumps(key).encode()
    kept = _kept(read_cache_json(path, opening), key, entries, skills_dir.strip("/"))
    if kept is not None:
        return kept
    found = find_skills(entries, skills_dir, include)
    listed = [[x.folder, x.skill_md, x.archived] for x in found]
    write_cache_json(path, {"key": key, "sha1": _digest(found), "locations": listed})
    return found


def _key(tree: ObjectID, skills_dir: str, include: Sequence[str]) -> str:
    return json.dumps([_FORMAT, tree.decode(), skills_dir, list(include)])


def _digest(found: Sequence[SkillLocation]) -> str:
    """The digest of the locations (a path holds no NUL: git stores none), a tenth of the
    cost of hashing their JSON again."""
    folders = "\0".join(x.folder for x in found)
    files = "\0".join(x.skill_md for x in found)
    flags = "".join("1" if x.archived else "0" for x in found)
    text = f"{folders}\1{files}\1{flags}"
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _kept(
    doc: object, key: str, entries: Mapping[str, tuple[ObjectID, int]], root: str
) -> list[SkillLocation] | None:
    if not isinstance(doc, dict) or doc.get("key") != key:
        return None
    listed = doc.get("locations")
    if not isinstance(listed, list):
        return None
    found = []
    for item in listed:
        if not (isinstance(item, list) and len(item) == 3):
            return None
        folder, skill_md, archived = item
        if not (isinstance(folder, str) and isinstance(skill_md, str)):
            return None
        if not isinstance(archived, bool):
            return None
        if skill_md not in entries or not skill_md.startswith(folder + "/"):
            return None
        found.append(SkillLocation(folder, skill_md, archived, root))
    return found if doc.get("sha1") == _digest(found) else None

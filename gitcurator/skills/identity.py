"""A skill's identity and the names that refer to it (pure).

A skill is known by its folder name (the spec makes it equal to `name:`); a differing
frontmatter name and a name absorbed into an umbrella refer to it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gitcurator.skills.document import SkillLocation

# The usage-record schema's rule for a skill name (the key of its record); a folder name that
# is not UTF-8 (lone surrogates, as os.fsdecode gives it) could key no record either.
_NAME_CHAR = r"[^\s\x00-\x1f\x7f\ud800-\udfffA-Z_/\\.-]"
VALID_NAME = re.compile(f"{_NAME_CHAR}(?:-?{_NAME_CHAR})*")


def identity(location: SkillLocation) -> str:
    """A skill's identity: its folder name (the spec makes it equal to `name:`)."""
    return location.dirname


def name_map(
    locations: Iterable[SkillLocation],
    frontmatter_names: dict[str, str],
    absorbed: dict[str, str],
) -> dict[str, str]:
    """name -> identity for folder names, differing frontmatter names and absorbed names.

    `frontmatter_names` maps a skill folder to its `name:`; `absorbed` maps an absorbed name to
    its umbrella (chains are followed to a live skill; in a cycle, which only hand-edited
    records make, every name resolves to one member of it).
    """
    names: dict[str, str] = {}
    # A folder whose name cannot key a record (e.g. `My_Skill`) takes no usage until renamed.
    locations = [loc for loc in locations if VALID_NAME.fullmatch(identity(loc))]
    for loc in locations:
        names.setdefault(identity(loc), identity(loc))
    for loc in locations:
        alias = frontmatter_names.get(loc.folder)
        if alias and alias not in names:
            names[alias] = identity(loc)
    # A live skill answers for its own name, whatever a record says it was absorbed into:
    # a rolled-back or restored fold brings the name back.
    live = {identity(loc) for loc in locations if not loc.archived}
    for old in absorbed:
        if old in live:
            continue
        target, seen = old, {old}
        while target in absorbed and target not in live and absorbed[target] not in seen:
            target = absorbed[target]
            seen.add(target)
        names[old] = target
    # A frontmatter alias of an absorbed skill follows it to its umbrella.
    for alias, ident in list(names.items()):
        if alias != ident and ident in absorbed and ident not in live:
            names[alias] = names[ident]
    return names

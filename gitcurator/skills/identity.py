"""A skill's identity and the names that refer to it (pure, stdlib only: the hot path uses it).

A skill is known by its folder name (the spec makes it equal to `name:`); a differing
frontmatter name and a name absorbed into an umbrella refer to it too.

One rule says what can be a skill's name, for every command, record, hook and the MCP server:
whatever folder `find_skills` takes as a skill, but for a control character or non-UTF-8 bytes
in its name (`validate` refuses such a folder, so only `--no-verify` lets one in). The spec's
stricter rule for `name:` (lower-case letters, digits, single hyphens) is a validation finding,
never a reason to refuse a skill `list` shows: real libraries hold `zoho_books-automation`,
`-21risk-automation`, `PDF-Tools`, `v1.2-notes`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False


if TYPE_CHECKING:
    from gitcurator.skills.document import SkillLocation

# Not a skill name: empty, a path (`/`), a dot-folder (find_skills skips them; `.`, `..`,
# `.git`), or control characters (a tab or newline would split a line of the journal's name
# cache). Kept in step with the `skill` pattern of schemas/usage-record.schema.json.
_NOT_A_NAME = re.compile(r"^\.|[/\x00-\x1f\x7f]")


def is_skill_name(name: object) -> bool:
    """Whether `name` can be a skill's identity (see the module's docstring)."""
    if not isinstance(name, str) or not name or _NOT_A_NAME.search(name):
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # a folder name that is not UTF-8 (read with surrogateescape)
        return False
    return True


def not_a_name_reason(name: str) -> str:
    """Why `name` is no skill name (for messages; "" when it is one)."""
    if is_skill_name(name):
        return ""
    if not name:
        return "is empty"
    if "/" in name:
        folder = name.rstrip("/").rsplit("/", 1)[-1]
        return f"is a path; name the skill by its folder alone ({folder!r})"
    if name.startswith("."):
        return "starts with '.', and folders so named hold no skills"
    if _NOT_A_NAME.search(name):
        return "holds a control character (a tab, a newline), which no command can take"
    return "is not UTF-8 text"


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
    locations = [loc for loc in locations if is_skill_name(identity(loc))]
    for loc in locations:
        names.setdefault(identity(loc), identity(loc))
    for loc in locations:
        alias = frontmatter_names.get(loc.folder)
        if alias and is_skill_name(alias) and alias not in names:
            names[alias] = identity(loc)
    # A live skill answers for its own name, whatever a record says it was absorbed into:
    # a rolled-back or restored fold brings the name back.
    live = {identity(loc) for loc in locations if not loc.archived}
    for old in absorbed:
        if old in live or not is_skill_name(old):
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

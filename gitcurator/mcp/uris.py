"""`skill://` URIs of the Skills extension (SEP-2640): built and taken apart (pure).

A skill file is `skill://<skill-path>/<file-path>`: the skill path is the skill's folder under
the library root (its categories, then its name), the file path is relative to the skill.
"""

from __future__ import annotations

from collections.abc import Container
from urllib.parse import quote, unquote

SCHEME = "skill://"
SKILL_FILE = "SKILL.md"
# RFC 3986 unreserved characters and the separator stay as they are; anything else in a file
# name (a space, a `#`, non-ASCII) is percent-encoded so the URI parses back to the same path.
_SAFE = "/-._~"


def skill_uri(skill_path: str, file: str = SKILL_FILE) -> str:
    """The URI of `file` (relative to the skill folder) of the skill at `skill_path`."""
    return SCHEME + quote(f"{skill_path}/{file}", safe=_SAFE)


def split_uri(uri: str, skill_paths: Container[str]) -> tuple[str, str] | None:
    """(skill path, file path) of a `skill://` URI naming a file of one of `skill_paths`;
    None for another scheme or a URI under no such skill."""
    if not uri.startswith(SCHEME):
        return None
    parts = unquote(uri[len(SCHEME) :]).split("/")
    # Skills never nest in a library (a deeper SKILL.md is a support file), so at most one
    # prefix is a skill; the longest is tried first only to stop early.
    for cut in range(len(parts) - 1, 0, -1):
        prefix = "/".join(parts[:cut])
        if prefix in skill_paths:
            return prefix, "/".join(parts[cut:])
    return None

"""A skill's entry as the Skills extension's `skills/list` and `skills/get` give it (pure).

The entry carries the SKILL.md frontmatter verbatim (as JSON) and every file of the skill with
its `sha256:` digest and size, so a host can verify what it reads later.
"""

from __future__ import annotations

import datetime as dt
import mimetypes
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gitcurator.mcp.uris import SKILL_FILE

# The extension's per-skill limits: a conforming host accepts skills up to these, and a server
# should not serve a skill over them.
MAX_RESOURCES = 512
MAX_TOTAL_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class FileDigest:
    """One file of a skill: its path in the skill, `sha256:<hex>` of its bytes, its size."""

    path: str
    digest: str
    size: int


def skill_entry(
    uri_of: Callable[[str], str], frontmatter: Mapping[str, Any], files: Sequence[FileDigest]
) -> dict[str, Any]:
    """The extension's Skill object: `uri_of` maps a file path in the skill to its URI."""
    return {
        "uri": uri_of(SKILL_FILE),
        "frontmatter": jsonable(dict(frontmatter)),
        "resources": [{"uri": uri_of(f.path), "digest": f.digest, "size": f.size} for f in files],
    }


def over_limits(files: Sequence[FileDigest]) -> str | None:
    """Why the skill exceeds the extension's limits, or None."""
    total = sum(f.size for f in files)
    if len(files) > MAX_RESOURCES:
        return f"it has {len(files)} files; the Skills extension allows {MAX_RESOURCES}"
    if total > MAX_TOTAL_BYTES:
        return (
            f"its files hold {total / 2**20:.1f} MiB; the Skills extension allows "
            f"{MAX_TOTAL_BYTES // 2**20} MiB"
        )
    return None


def mime_type(path: str) -> str:
    """The MIME type a file is served with (Markdown as text/markdown, as the extension asks)."""
    if path.lower().endswith((".md", ".markdown")):
        return "text/markdown"
    guessed, _ = mimetypes.guess_type(path, strict=False)
    return guessed or "application/octet-stream"


def jsonable(value: Any) -> Any:
    """YAML data as JSON data: dates become ISO strings, keys strings, sets lists."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)

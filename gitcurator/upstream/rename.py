"""A skill taken under another name (`add --as`): its SKILL.md's `name:` made the folder's
(pure), touching that one line so later upstream edits of the rest still merge cleanly."""

from __future__ import annotations

import json
import re

_NAME_LINE = re.compile(rb"^name[ \t]*:.*?(\r?\n)", re.M)
_FRONTMATTER = re.compile(rb"\A(\xef\xbb\xbf)?---[ \t]*\r?\n(.*?)^---[ \t]*$", re.M | re.S)


def renamed_skill_md(data: bytes, name: str) -> bytes:
    """`data` (a SKILL.md) with the frontmatter's `name:` line set to `name` (added when the
    frontmatter has none); a file without frontmatter is returned as it is, and validation
    says what is missing."""
    match = _FRONTMATTER.match(data)
    if match is None:
        return data
    head = match.group(2)
    plain = re.fullmatch(r"[a-z0-9][a-z0-9-]*", name) is not None
    # A JSON string is a YAML string: any other name is quoted so YAML reads it back as text.
    value = (name if plain else json.dumps(name, ensure_ascii=False)).encode()
    line = _NAME_LINE.search(head)
    if line is None:
        new_head = b"name: " + value + b"\n" + head
    else:
        new_head = head[: line.start()] + b"name: " + value + line.group(1) + head[line.end() :]
    return data[: match.start(2)] + new_head + data[match.end(2) :]

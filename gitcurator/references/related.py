"""What a SKILL.md's frontmatter says of other skills (pure). Hermes writes
`related_skills: [arxiv, plan]` (under `metadata.hermes`, or at the top): a one-word name
there is a skill's name, though the same word in prose would not be. The top-level `name:` is
the skill's own name, never a reference: a copied folder (`pdf-forms-v2/`) still saying
`name: pdf-forms` would otherwise be renamed to the umbrella when pdf-forms is folded."""

from __future__ import annotations

import re
from collections.abc import Iterator

RELATED = "related"
# The key, then a flow list on its line or a block list on the lines after it.
_KEY = re.compile(r"^([ \t]*)related_skills[ \t]*:[ \t]*", re.M)
_FLOW_ITEM = re.compile(r"[^,\[\]\s'\"][^,\[\]'\"]*|'[^'\n]*'|\"[^\"\n]*\"")
_BLOCK_ITEM = re.compile(r"[ \t]*-[ \t]+(.*)")
_END = re.compile(r"^---[ \t\r]*$", re.M)
_NAME = re.compile(r"^name[ \t]*:[^\n]*", re.M)


def own_name_span(text: str) -> tuple[int, int] | None:
    """Where the frontmatter's top-level `name:` line of `text` is, if it has one."""
    front = frontmatter_end(text)
    match = _NAME.search(text, 0, front) if front else None
    return (match.start(), match.end()) if match else None


def frontmatter_end(text: str) -> int:
    """Where the frontmatter of `text` ends (0: it has none)."""
    if not text.startswith("---"):
        return 0
    first = text.find("\n") + 1
    end = _END.search(text, first) if first else None
    return end.start() if end is not None else 0


def related_skills(text: str) -> Iterator[tuple[str, int]]:
    """(name, offset) of each item of a `related_skills` list in `text`'s frontmatter."""
    if "related_skills" not in text:
        return
    front = text[: frontmatter_end(text)]
    for key in _KEY.finditer(front, min(len(front), 3)):
        rest = front[key.end() : _line_end(front, key.end())]
        if rest.startswith("["):
            items = _flow(rest, key.end())
        else:
            items = _block(front, _line_end(front, key.end()) + 1, len(key.group(1)))
        yield from ((name, at) for name, at in items if name)


def _flow(line: str, at: int) -> Iterator[tuple[str, int]]:
    close = line.find("]")
    for item in _FLOW_ITEM.finditer(line, 1, close if close != -1 else len(line)):
        yield _unquoted(item.group(0), at + item.start())


def _block(front: str, start: int, indent: int) -> Iterator[tuple[str, int]]:
    """The `- item` lines after the key, as deep as it or deeper."""
    while start < len(front):
        end = _line_end(front, start)
        line = front[start:end]
        item = _BLOCK_ITEM.fullmatch(line)
        if item is None or len(line) - len(line.lstrip(" \t")) < indent:
            return
        yield _unquoted(item.group(1).split(" #", 1)[0], start + item.start(1))
        start = end + 1


def _unquoted(raw: str, at: int) -> tuple[str, int]:
    """The item without its quotes or spaces, and where that begins."""
    value = raw.rstrip()
    if value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1:
        return value[1:-1].strip(), at + 1 + (len(value[1:-1]) - len(value[1:-1].lstrip()))
    return value.strip(), at + (len(value) - len(value.lstrip()))


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end == -1 else end

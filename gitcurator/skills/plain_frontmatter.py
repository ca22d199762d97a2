"""The frontmatter most SKILL.md files have, read without YAML: one `key: value` per line,
printable ASCII, each value a plain word-led string or a quoted one with nothing to unescape
(pure).

It answers only where the answer is certainly what PyYAML's safe loader gives (the same keys
and strings, the last of a repeated key kept); anything else (a nested block, a list, a
number or date, a comment, an escape, a tab, a character outside printable ASCII) is None
and goes to YAML. libyaml costs ~60 µs a SKILL.md, a tenth of checking it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

_STR = "tag:yaml.org,2002:str"
# A key YAML reads as a simple key (libyaml allows 1,024 characters; this is far below).
_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]{0,127}): +(\S.*)")
# What may follow the first character of a plain value: none of YAML's indicators that
# matter after it in block context (`: `, ` #`) nor flow brackets, which this leaves to YAML.
_PLAIN_REST = re.compile(r"[^:#\[\]{}]*")


def plain_mapping(lines: Sequence[str]) -> dict[str, str] | None:
    """The mapping `lines` hold when each is blank or `key: value` as described above (one
    at least), else None (then YAML must read them)."""
    found: dict[str, str] = {}
    for line in lines:
        if not line:
            continue
        if not (line.isascii() and line.isprintable()):
            return None  # tabs, control characters, and every line break YAML knows
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        key, raw = match.group(1), match.group(2).rstrip(" ")
        value = _value(raw)
        if value is None or _key_resolves(key) != _STR:
            return None
        found[key] = value
    return found or None  # no key at all: YAML's None, not a mapping


def _value(raw: str) -> str | None:
    """The string a one-line YAML scalar `raw` (stripped) stands for, if it is plainly one."""
    first = raw[0]
    if first == "'":
        inner = raw[1:-1]
        return inner if len(raw) > 1 and raw[-1] == "'" and "'" not in inner else None
    if first == '"':
        inner = raw[1:-1]
        plain = len(raw) > 1 and raw[-1] == '"' and '"' not in inner and "\\" not in inner
        return inner if plain else None
    if not first.isalnum() or _PLAIN_REST.fullmatch(raw, 1) is None:
        return None
    return raw if _resolves(raw) == _STR else None


@functools.lru_cache(maxsize=512)
def _key_resolves(key: str) -> str:
    """_resolves for a key (a library repeats a handful of them)."""
    return _resolves(key)


def _resolves(plain: str) -> str:
    """The tag PyYAML's resolver gives an unquoted scalar (`yes` a bool, `1.5` a float)."""
    node, resolver = _resolver()
    return str(resolver.resolve(node, plain, (True, False)))


@functools.cache
def _resolver() -> tuple[type, Any]:
    """PyYAML's scalar node class and a resolver, imported on first use: a command that
    reads no frontmatter (a warm pass answers from its caches) does not pay for yaml."""
    from yaml.nodes import ScalarNode
    from yaml.resolver import Resolver

    return ScalarNode, Resolver()

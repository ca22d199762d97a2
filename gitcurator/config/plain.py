"""`.gitcurator.yaml` read without PyYAML when it is in the plain form `init` writes (pure).

Importing PyYAML and running its pure-Python loader costs a command that only needs the
config about as much as the rest of its start-up (`validate` of an unchanged library). The
form read here is: top-level keys, sections of keys indented two spaces, comments, and values
that YAML reads one way only (an integer, a decimal, `true`, `false`, `null`, `[]`, a word).
Anything else (a quoted string, a list, `yes`, `010`, `1e3`, a tab, a duplicate key) is
None: PyYAML reads it. tests/test_config_plain.py holds the two equal on generated texts.
"""

from __future__ import annotations

import re
from typing import Any

_KEY = re.compile(r"[a-z_][a-z0-9_]*\Z")
# Short numbers only: a longer one (past Python's digit limit for int()) is PyYAML's to refuse.
_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,17})\Z")
_FLOAT = re.compile(r"-?[0-9]{1,15}\.[0-9]{1,15}\Z")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
# Words YAML 1.1 (PyYAML) reads as a boolean or null in some spelling: left to PyYAML.
_SPECIAL = frozenset({"yes", "no", "on", "off", "y", "n", "true", "false", "null"})
_EXACT: dict[str, Any] = {"true": True, "false": False, "null": None}
_NOT_PLAIN = object()


_NOT_PLAIN_TEXT = re.compile(r"[^\n\x20-\x7e]")


def plain_config(text: str) -> dict[str, Any] | None:
    """What yaml.safe_load reads from `text` if it is in the plain form, else None."""
    # Printable ASCII and newlines only: PyYAML refuses most control characters, and tabs,
    # \r, \x0b, \x0c and \x1c-\x1f are whitespace to str.strip but not to YAML.
    if _NOT_PLAIN_TEXT.search(text):
        return None
    doc: dict[str, Any] = {}
    section: dict[str, Any] | None = None
    for line in text.split("\n"):
        body = _without_comment(line)
        if not body.strip():
            continue
        indent = len(body) - len(body.lstrip(" "))
        key, colon, rest = body.strip().partition(":")
        if not colon or not _KEY.match(key) or key.lower() in _SPECIAL:
            return None  # `on:` is the key True to YAML 1.1
        if rest and not rest.startswith(" "):
            return None
        if indent == 0:
            if section is not None and not section:
                return None  # a section with nothing under it is null: PyYAML says so
            if key in doc:
                return None
            section = doc[key] = {} if not rest.strip() else None
            if section is None:
                value = _scalar(rest.strip())
                if value is _NOT_PLAIN:
                    return None
                doc[key] = value
            continue
        if indent != 2 or section is None or key in section or not rest.strip():
            return None
        value = _scalar(rest.strip())
        if value is _NOT_PLAIN:
            return None
        section[key] = value
    if section is not None and not section:
        return None
    return doc or None


def _without_comment(line: str) -> str:
    # A comment starts at a `#` that begins the line or follows a space; a `#` elsewhere is
    # part of a value, and no plain value holds one.
    if line.lstrip(" ").startswith("#"):
        return ""
    at = line.find(" #")
    return line if at < 0 else line[:at]


def _scalar(text: str) -> object:
    if text in _EXACT:
        return _EXACT[text]
    if text == "[]":
        return []
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    if _WORD.match(text) and text.lower() not in _SPECIAL:
        return text
    return _NOT_PLAIN

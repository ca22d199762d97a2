"""`json.dumps(doc, indent=2, ensure_ascii=False)`, 2-3x faster (pure): a usage record's
note text, a pass's run.json and `--json` output.

With an indent the standard library leaves its C encoder for a Python one (20 µs a record,
40 ms of a flush of 2,000; 10 ms of a pass's report). Documents of dicts with string keys,
lists, strings, ints, booleans and None are written here the way that encoder writes them,
strings through its own C escaper; anything else (a float, a subclass, a nesting deeper than
16) goes to json.dumps itself, so the text is always the one it gives.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring

_MAX_DEPTH = 16  # a record nests 4 deep; deeper (or a cycle) is json.dumps's to judge


class _NotPlain(Exception):
    """A value this module does not write (json.dumps does)."""


def indented(doc: object) -> str:
    """`json.dumps(doc, indent=2, ensure_ascii=False)`, character for character."""
    try:
        return _text(doc, 0)
    except _NotPlain:
        return json.dumps(doc, indent=2, ensure_ascii=False)


def _text(value: object, level: int) -> str:
    if type(value) is str:
        return encode_basestring(value)
    if type(value) is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if level >= _MAX_DEPTH:
        raise _NotPlain
    if type(value) is dict:
        if not value:
            return "{}"
        inner = "\n" + "  " * (level + 1)
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain  # json.dumps turns numbers and booleans into keys its way
            # A string or an int written here, not by a call: most of a record's values.
            kind = type(item)
            if kind is str:
                text = encode_basestring(item)
            elif kind is int:
                text = int.__repr__(item)
            elif item is None:
                text = "null"
            else:
                text = _text(item, level + 1)
            parts.append(f"{encode_basestring(key)}: {text}")
        return "{" + inner + ("," + inner).join(parts) + "\n" + "  " * level + "}"
    if type(value) is list or type(value) is tuple:
        if not value:
            return "[]"
        inner = "\n" + "  " * (level + 1)
        parts = [_text(item, level + 1) for item in value]
        return "[" + inner + ("," + inner).join(parts) + "\n" + "  " * level + "]"
    raise _NotPlain

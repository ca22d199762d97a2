"""A quick "valid" for documents plainly inside a schema: jsonschema is asked about the rest.

Importing jsonschema costs ~0.27 s and checking 10,000 usage records with it ~1 s: more than
a whole warm `list`. gitcurator's schemas use a handful of keywords (type, properties,
required, additionalProperties, propertyNames, items, const, enum, pattern, lengths and
bounds), and nearly every document they meet is one gitcurator wrote. `compile_schema` turns a
schema into a check that answers True only when the document is certainly valid under
JSON Schema 2020-12 as jsonschema reads these keywords; anything unusual (a float where an
integer is wanted, a NaN, a keyword or value type it does not know) answers False, and the
caller then asks jsonschema, whose answer and messages stay the only ones anyone sees.
False is never a verdict, so this can be wrong only by being slow.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[object], bool]

# Keywords that never fail a document (format is not asserted: schemas.py runs no
# FormatChecker) and keywords this module checks; any other makes a schema unsupported.
_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "title", "description", "examples", "default", "format"}
)
_TYPES: dict[str, Callable[[object], bool]] = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    # Exact ints only: jsonschema also takes 1.0 as an integer, which is left to it.
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) is int or (type(v) is float and math.isfinite(v)),
}


class Unsupported(Exception):
    """The schema uses something `compile_schema` does not check."""


def compile_schema(schema: object) -> Check | None:
    """A check answering True only for documents certainly valid under `schema` (None when
    the schema uses a keyword or form this module does not know)."""
    try:
        return _compile(schema)
    except Unsupported:
        return None


def _compile(schema: object) -> Check:
    if schema is True:
        return lambda _v: True
    if not isinstance(schema, Mapping) or not schema:
        raise Unsupported(repr(schema)[:40])  # `false` or an odd form: leave it to jsonschema
    checks: list[Check] = []
    for key, value in schema.items():
        if key in _ANNOTATIONS:
            continue
        maker = _KEYWORDS.get(key)
        if maker is None:
            raise Unsupported(key)
        checks.append(maker(value, schema))
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(c(v) for c in checks)


def _type(value: object, _schema: Mapping[str, Any]) -> Check:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(n in _TYPES for n in names):
        raise Unsupported(f"type {value!r}")
    tests = [_TYPES[n] for n in names]
    if len(tests) == 1:
        return tests[0]
    return lambda v: any(t(v) for t in tests)


def _properties(value: object, schema: Mapping[str, Any]) -> Check:
    if not isinstance(value, Mapping):
        raise Unsupported("properties")
    props = {str(k): _compile(s) for k, s in value.items()}
    extra = schema.get("additionalProperties", True)
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    others: Check | None = None if extra is False else _compile(extra)

    def check(v: object) -> bool:
        if type(v) is not dict:
            return True  # applies to objects only
        for key, item in v.items():
            test = props.get(key)
            if test is None:
                if others is None or not others(item):
                    return False
            elif not test(item):
                return False
        return True

    return check


def _additional(value: object, schema: Mapping[str, Any]) -> Check:
    if "properties" in schema:
        return lambda _v: True  # checked with the properties
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    if value is False:
        return lambda v: type(v) is not dict or not v
    test = _compile(value)
    return lambda v: type(v) is not dict or all(test(item) for item in v.values())


def _required(value: object, _schema: Mapping[str, Any]) -> Check:
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise Unsupported("required")
    keys = tuple(value)
    return lambda v: type(v) is not dict or all(k in v for k in keys)


def _property_names(value: object, _schema: Mapping[str, Any]) -> Check:
    test = _compile(value)
    return lambda v: type(v) is not dict or all(test(k) for k in v)


def _items(value: object, schema: Mapping[str, Any]) -> Check:
    if "prefixItems" in schema or not isinstance(value, Mapping):
        raise Unsupported("items")
    test = _compile(value)
    return lambda v: type(v) is not list or all(test(item) for item in v)


def _const(value: object, _schema: Mapping[str, Any]) -> Check:
    if type(value) not in (str, int, bool) and value is not None:
        raise Unsupported("const")
    kind = type(value)
    return lambda v: type(v) is kind and v == value


def _enum(value: object, _schema: Mapping[str, Any]) -> Check:
    if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
        raise Unsupported("enum")
    allowed = frozenset(value)
    return lambda v: type(v) is str and v in allowed


def _pattern(value: object, _schema: Mapping[str, Any]) -> Check:
    if not isinstance(value, str):
        raise Unsupported("pattern")
    search = re.compile(value).search  # jsonschema searches, it does not match whole
    return lambda v: type(v) is not str or search(v) is not None


def _length(at_least: bool) -> Callable[[object, Mapping[str, Any]], Check]:
    def make(value: object, _schema: Mapping[str, Any]) -> Check:
        if type(value) is not int:
            raise Unsupported("length")
        if at_least:
            return lambda v: type(v) is not str or len(v) >= value
        return lambda v: type(v) is not str or len(v) <= value

    return make


def _bound(compare: Callable[[Any, Any], bool]) -> Callable[[object, Mapping[str, Any]], Check]:
    def make(value: object, _schema: Mapping[str, Any]) -> Check:
        if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
            raise Unsupported("bound")

        def check(v: object) -> bool:
            if type(v) not in (int, float):
                return True  # not a number (a bool is none): the bound does not apply
            # An int compares exactly (as jsonschema compares it), even past float's range,
            # where math.isfinite would raise OverflowError.
            finite = type(v) is int or math.isfinite(v)  # type: ignore[arg-type]
            return finite and compare(v, value)

        return check

    return make


_KEYWORDS: dict[str, Callable[[object, Mapping[str, Any]], Check]] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "propertyNames": _property_names,
    "items": _items,
    "const": _const,
    "enum": _enum,
    "pattern": _pattern,
    "minLength": _length(True),
    "maxLength": _length(False),
    "minimum": _bound(lambda v, b: v >= b),
    "maximum": _bound(lambda v, b: v <= b),
    "exclusiveMinimum": _bound(lambda v, b: v > b),
    "exclusiveMaximum": _bound(lambda v, b: v < b),
}

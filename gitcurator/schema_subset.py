"""A quick "valid" for documents plainly inside a schema: jsonschema is asked about the rest.

Importing jsonschema costs ~0.27 s and checking 10,000 usage records with it ~1 s: more than
a whole warm `list`. gitcurator's schemas use a handful of keywords (type, properties,
required, additionalProperties, propertyNames, items, const, enum, pattern, lengths and
bounds), and nearly every document they meet is one gitcurator wrote. `compile_schema` turns a
schema into a check (generated Python, one function per subschema) that answers True only
when the document is certainly valid under JSON Schema 2020-12 as jsonschema reads these
keywords; anything unusual (a float where an integer is wanted, a NaN, a keyword or value
type it does not know) answers False, and the caller then asks jsonschema, whose answer and
messages stay the only ones anyone sees. False is never a verdict, so this can be wrong only
by being slow.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import CodeType
from typing import Any

Check = Callable[[object], bool]
Maker = Callable[["_Code", object, Mapping[str, Any]], list[str]]

# Keywords that never fail a document (format is not asserted: schemas.py runs no
# FormatChecker) and keywords this module checks; any other makes a schema unsupported.
_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "title", "description", "examples", "default", "format"}
)
# Each type as a test of `v` in the generated code. Exact ints only: jsonschema also takes
# 1.0 as an integer, which is left to it.
_TYPES = {
    "object": "type(v) is dict",
    "array": "type(v) is list",
    "string": "type(v) is str",
    "boolean": "type(v) is bool",
    "null": "v is None",
    "integer": "type(v) is int",
    "number": "(type(v) is int or (type(v) is float and _isfinite(v)))",
}


class Unsupported(Exception):
    """The schema uses something `compile_schema` does not check."""


def compile_schema(schema: object) -> Check | None:
    """A check answering True only for documents certainly valid under `schema` (None when
    the schema uses a keyword or form this module does not know)."""
    code = _Code()
    try:
        name = code.function(schema)
    except Unsupported:
        return None
    # Straight-line Python, one function per subschema: closures per keyword cost ~12 µs a
    # usage record (60 calls), this ~2 µs. Every value the code uses (names, patterns,
    # constants) is passed in the namespace, never written into the text.
    namespace: dict[str, Any] = {"_isfinite": math.isfinite, **code.values}
    exec(_compiled("\n".join(code.lines)), namespace)
    check: Check = namespace[name]
    return check


# The generated code of the shipped schemas, kept in the package by its digest (see
# `keep_code`): Python's bytecode cache then spares a process compiling it, ~4 ms a schema
# and two schemas in a flush (the config's and the usage record's).
KEPT_CODE = Path(__file__).parent / "schema_code"


def code_name(source: str) -> str:
    """The name of the kept file of generated code `source`."""
    return hashlib.sha1(source.encode()).hexdigest()[:20] + ".code"


def generated_code(schema: object) -> str | None:
    """The code compile_schema generates for `schema` (None: unsupported)."""
    code = _Code()
    try:
        code.function(schema)
    except Unsupported:
        return None
    return "\n".join(code.lines)


def keep_code(schema: object) -> Path | None:
    """Write `schema`'s generated code into the package's kept code (tests say when to)."""
    source = generated_code(schema)
    if source is None:
        return None
    path = KEPT_CODE / code_name(source)
    path.write_text(source, encoding="utf-8")
    return path


def _compiled(source: str) -> CodeType:
    """`source` compiled: through the bytecode cache when the package keeps this very text
    (compared whole, so a stale or edited file is only slower), else now."""
    name = code_name(source)
    path = KEPT_CODE / name
    if path.is_file():
        loader = SourceFileLoader(f"gitcurator.schema_code.{name}", str(path))
        try:
            if loader.get_source(loader.name) == source:
                kept = loader.get_code(loader.name)
                if kept is not None:
                    return kept
        except (ImportError, OSError, SyntaxError, ValueError):
            pass  # unreadable, or a cache Python refuses: compiled below, as before
    return compile(source, "<schema_subset>", "exec")


class _Code:
    """The generated module: its lines and the values they name."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.values: dict[str, object] = {}
        self.names = 0

    def fresh(self, prefix: str) -> str:
        """A name not used before."""
        self.names += 1
        return f"{prefix}{self.names}"

    def value(self, value: object) -> str:
        """A name in the namespace holding `value`."""
        name = self.fresh("_c")
        self.values[name] = value
        return name

    def function(self, schema: object) -> str:
        """The name of a generated function checking `schema` (raises Unsupported)."""
        if schema is True:
            body = ["return True"]
        elif not isinstance(schema, Mapping) or not schema:
            raise Unsupported(repr(schema)[:40])  # `false` or an odd form: leave it to jsonschema
        else:
            body = []
            for key, value in schema.items():
                if key in _ANNOTATIONS:
                    continue
                maker = _KEYWORDS.get(key)
                if maker is None:
                    raise Unsupported(key)
                body += maker(self, value, schema)
            body.append("return True")
        name = self.fresh("_f")
        self.lines += [f"def {name}(v):", *("    " + line for line in body)]
        return name


def _type(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) and n in _TYPES for n in names):
        raise Unsupported(f"type {value!r}")
    return [f"if not ({' or '.join(_TYPES[n] for n in names)}): return False"]


def _properties(code: _Code, value: object, schema: Mapping[str, Any]) -> list[str]:
    if not isinstance(value, Mapping):
        raise Unsupported("properties")
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    tests = [f"{code.value(str(k))}: {code.function(s)}" for k, s in value.items()]
    props = code.fresh("_p")  # key -> its function, made once the functions are defined
    code.lines.append(f"{props} = {{{', '.join(tests)}}}")
    extra = schema.get("additionalProperties", True)
    if extra is False:
        other = ["return False"]
    elif extra is True:
        other = ["continue"]
    else:
        other = [f"if not {code.function(extra)}(x): return False", "continue"]
    return [
        "if type(v) is dict:",
        "    for k, x in v.items():",
        f"        t = {props}.get(k)",
        "        if t is None:",
        *("            " + line for line in other),
        "        if not t(x): return False",
    ]


def _additional(code: _Code, value: object, schema: Mapping[str, Any]) -> list[str]:
    if "properties" in schema:
        return []  # checked with the properties
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    if value is False:
        return ["if type(v) is dict and v: return False"]
    test = code.function(value)
    return [
        "if type(v) is dict:",
        "    for x in v.values():",
        f"        if not {test}(x): return False",
    ]


def _required(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise Unsupported("required")
    if not value:
        return []
    keys = " and ".join(f"{code.value(k)} in v" for k in value)
    return [f"if type(v) is dict and not ({keys}): return False"]


def _property_names(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
    test = code.function(value)
    return ["if type(v) is dict:", "    for k in v:", f"        if not {test}(k): return False"]


def _items(code: _Code, value: object, schema: Mapping[str, Any]) -> list[str]:
    if "prefixItems" in schema or not isinstance(value, Mapping):
        raise Unsupported("items")
    test = code.function(value)
    return ["if type(v) is list:", "    for x in v:", f"        if not {test}(x): return False"]


def _const(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
    if type(value) not in (str, int, bool) and value is not None:
        raise Unsupported("const")
    kind, const = code.value(type(value)), code.value(value)
    return [f"if not (type(v) is {kind} and v == {const}): return False"]


def _enum(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
        raise Unsupported("enum")
    allowed = code.value(frozenset(value))
    return [f"if not (type(v) is str and v in {allowed}): return False"]


def _pattern(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
    if not isinstance(value, str):
        raise Unsupported("pattern")
    search = code.value(re.compile(value).search)  # jsonschema searches, it does not match whole
    return [f"if type(v) is str and {search}(v) is None: return False"]


def _length(at_least: bool) -> Maker:
    def make(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
        if type(value) is not int:
            raise Unsupported("length")
        fails = "<" if at_least else ">"
        return [f"if type(v) is str and len(v) {fails} {code.value(value)}: return False"]

    return make


def _bound(holds: str) -> Maker:
    def make(code: _Code, value: object, _schema: Mapping[str, Any]) -> list[str]:
        if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
            raise Unsupported("bound")
        bound = code.value(value)
        # Not a number (a bool is none): the bound does not apply. An int compares exactly
        # (as jsonschema compares it), even past float's range, where math.isfinite would
        # raise OverflowError.
        return [
            f"if type(v) is int and not (v {holds} {bound}): return False",
            f"if type(v) is float and not (_isfinite(v) and v {holds} {bound}): return False",
        ]

    return make


_KEYWORDS: dict[str, Maker] = {
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
    "minimum": _bound(">="),
    "maximum": _bound("<="),
    "exclusiveMinimum": _bound(">"),
    "exclusiveMaximum": _bound("<"),
}

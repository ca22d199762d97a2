"""The JSON Schemas gitcurator ships, and validation of documents against them."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from gitcurator.errors import SchemaError

KINDS = ("skill-frontmatter", "config", "usage-record", "run-report", "consolidation-plan")


def schema_dir() -> Path:
    """Where the schemas are: inside the installed package, else the source checkout's top level."""
    packaged = Path(__file__).parent / "schemas"
    if packaged.is_dir():
        return packaged
    # An editable install runs from the source tree, where schemas/ sits beside the package.
    return Path(__file__).parent.parent / "schemas"


@functools.cache
def load(kind: str) -> dict[str, Any]:
    """The schema document for `kind` (one of KINDS)."""
    if kind not in KINDS:
        raise ValueError(f"unknown schema kind {kind!r}")
    path = schema_dir() / f"{kind}.schema.json"
    with path.open(encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


@functools.cache
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    # No FormatChecker: its optional format libraries cost seconds to import (rfc3987-syntax
    # builds grammars at import). Timestamps carry a pattern for the canonical form instead.
    return Draft202012Validator(load(kind))


def problems(doc: object, kind: str) -> list[str]:
    """Every way `doc` breaks the `kind` schema, as 'at <path>: <message>' lines."""
    if _accepted(doc, kind):
        return []  # the compiled check is never the more lenient (see is_valid)
    found = []
    for err in sorted(_validator(kind).iter_errors(doc), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(p) for p in err.absolute_path) or "(top level)"
        found.append(f"at {where}: {err.message}")
    return found


@functools.cache
def _compiled(kind: str) -> Any:
    import fastjsonschema

    # fastjsonschema knows drafts 4 to 7; the keywords our schemas use mean the same there
    # as in 2020-12 (tests/test_schemas_fast.py checks both verdicts agree on many documents).
    return fastjsonschema.compile(load(kind))


def is_valid(doc: object, kind: str) -> bool:
    """Whether `doc` matches the `kind` schema: a compiled check (~10 µs, against ~0.4 ms for
    jsonschema, which also costs ~0.1 s to import), and jsonschema's own verdict when the
    compiled one refuses (it is the stricter of the two on `format`)."""
    return not problems(doc, kind)


def _accepted(doc: object, kind: str) -> bool:
    try:
        import fastjsonschema
    except ImportError:  # an install without it: jsonschema decides alone
        return False
    try:
        _compiled(kind)(doc)
    except fastjsonschema.JsonSchemaException:  # a refusal, or a schema it cannot compile
        return False
    return True


def check(doc: object, kind: str, what: str) -> None:
    """Raise SchemaError naming `what` if `doc` does not match the `kind` schema."""
    found = problems(doc, kind)
    if found:
        raise SchemaError(f"{what} does not match the {kind} schema: " + "; ".join(found))

"""The JSON Schemas gitcurator ships, and validation of documents against them."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from gitcurator.errors import SchemaError
from gitcurator.schema_subset import Check, compile_schema

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


@functools.cache
def _quick(kind: str) -> Check | None:
    return compile_schema(load(kind))


def problems(doc: object, kind: str) -> list[str]:
    """Every way `doc` breaks the `kind` schema, as 'at <path>: <message>' lines."""
    # A document plainly valid needs no jsonschema (0.27 s to import, ~0.1 ms a document).
    quick = _quick(kind)
    if quick is not None and quick(doc):
        return []
    found = []
    for err in sorted(_validator(kind).iter_errors(doc), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(p) for p in err.absolute_path) or "(top level)"
        found.append(f"at {where}: {err.message}")
    return found


def is_valid(doc: object, kind: str) -> bool:
    """Whether `doc` matches the `kind` schema (the quick check first, jsonschema after)."""
    return not problems(doc, kind)


def check(doc: object, kind: str, what: str) -> None:
    """Raise SchemaError naming `what` if `doc` does not match the `kind` schema."""
    found = problems(doc, kind)
    if found:
        raise SchemaError(f"{what} does not match the {kind} schema: " + "; ".join(found))

"""Builders for tests of the Hermes importer: Hermes' own files as it writes them."""

from __future__ import annotations

from typing import Any


def hub_lock(**paths: str) -> dict[str, Any]:
    """A `.hub/lock.json` document installing each named skill at its path."""
    return {"version": 1, "installed": {n: {"install_path": p} for n, p in paths.items()}}

"""Fixtures of the store's tests: a small library made with real git, opened as a Store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.stores import make_library

from gitcurator.library import open_store
from gitcurator.store import Store


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    """A git repository (real git) with three skills and a support file."""
    return make_library(tmp_path / "lib")


@pytest.fixture
def store(lib: Path) -> Iterator[Store]:
    """`lib` opened the way a command opens it (signed, so it can commit)."""
    with open_store(lib) as s:
        yield s

"""gitcurator.store's names, loaded when first asked for (PEP 562): each imports as before, in
a fresh process, and the type checker still refuses a name the package does not have."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import gitcurator.store

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    # This tree first (the venv's editable install may point at another checkout).
    return dict(os.environ, PYTHONPATH=str(ROOT), MYPYPATH=str(ROOT))


@pytest.mark.parametrize("name", gitcurator.store.__all__)
def test_each_name_imports_first_thing_in_a_process(name: str) -> None:
    code = f"from gitcurator.store import {name}; import gitcurator.store as s; s.{name}"
    done = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def test_a_name_the_package_lacks_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        gitcurator.store.Nope  # type: ignore[attr-defined]  # noqa: B018


def test_mypy_still_refuses_a_misspelt_import(tmp_path: Path) -> None:
    # A module __getattr__ mypy can see makes every attribute of the module `Any`: a typo in
    # `from gitcurator.store import ...` then type-checks and fails only when run.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from gitcurator.store import WorktreeScan, Bogus\nprint(WorktreeScan, Bogus)\n"
    )
    args = ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(probe)]
    done = subprocess.run(
        [sys.executable, "-m", "mypy", *args], env=_env(), capture_output=True, text=True
    )
    assert 'Module "gitcurator.store" has no attribute "Bogus"' in done.stdout, done.stdout
    assert "WorktreeScan" not in done.stdout, "the lazily loaded names are still typed"

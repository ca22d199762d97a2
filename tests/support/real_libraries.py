"""Public skill libraries as test data (tests/data/fetch.py), skipped when they cannot be had."""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from gitcurator.skills.document import SkillParseError, parse_skill_md
from gitcurator.umbrella.candidates import Candidate

DATA = Path(__file__).resolve().parents[1] / "data"
LABELS = DATA / "sibling_labels.json"


@cache
def fetch_module() -> ModuleType:
    """tests/data/fetch.py, loaded by path (tests/data is not a package)."""
    spec = importlib.util.spec_from_file_location("gitcurator_real_fetch", DATA / "fetch.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def real_library(name: str) -> Path:
    """The library called `name` (fetch.LIBRARIES), or a skip saying why it is absent."""
    fetch = fetch_module()
    try:
        return Path(fetch.library(name))
    except fetch.FetchError as exc:
        pytest.skip(f"{name}: {exc}")


def candidates(folders: list[Path]) -> list[Candidate]:
    """A candidate per skill folder, named after the folder (unreadable ones left out)."""
    found = []
    for folder in folders:
        try:
            doc = parse_skill_md((folder / "SKILL.md").read_bytes())
        except SkillParseError:
            continue
        found.append(Candidate(folder.name, folder.name, doc.description or "", doc.body))
    return found


def library_candidates(name: str) -> list[Candidate]:
    """Every skill of library `name` as a candidate."""
    root = real_library(name)
    return candidates(sorted(p.parent for p in root.rglob("SKILL.md")))


def labelled_fixture() -> tuple[list[Candidate], dict[str, str | None]]:
    """The 150 labelled skills as candidates, and each one's sibling group."""
    labels = json.loads(LABELS.read_text())
    folders, group = [], {}
    for row in labels["skills"]:
        folders.append(real_library(row["library"]) / row["path"])
        group[row["path"].rsplit("/", 1)[-1]] = row["group"]
    return candidates(folders), group

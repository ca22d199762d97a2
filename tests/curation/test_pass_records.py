"""The records' facts a pass keeps beside the rows (curation/pass_records): used only under
the rows key they were loaded under, so a repository changed by plain git behind
gitcurator's back, an event recorded since, or a damaged cache gives a cold run's answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.damaged_caches import KINDS, damage_cache
from support.references import committed_library, run_json
from support.repos import corrupt_note, git, run_cli

from gitcurator import statefiles
from gitcurator.statefiles import PASS_RECORDS_CACHE, ROWS_CACHE

SKILLS = {
    "old-helper": "Helps with old things.",
    "old-unused": "Nobody needs this.",
    "daily-driver": "Every day.",
    "half-used": "Now and then.",
}
LATER = "2026-06-02T00:00:00Z"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = committed_library(
        tmp_path / "lib", monkeypatch, SKILLS, agents=[*SKILLS], used=["daily-driver"]
    )
    # A first pass records states in the notes; `status` then keeps the rows of the notes it
    # left, and a second pass (nothing new to record) keeps the facts under the same key.
    run_json(root)
    assert run_cli("status", "-C", str(root)).code == 0
    run_json(root, "--now", LATER)
    assert _key(root, PASS_RECORDS_CACHE) == _key(root, ROWS_CACHE) is not None
    return root


def _state(repo: Path) -> Path:
    return repo / ".git/gitcurator"


def _key(repo: Path, name: str) -> str | None:
    try:
        key: str = json.loads((_state(repo) / name).read_text())["key"]
    except (OSError, ValueError, KeyError):
        return None
    return key


def _dry(repo: Path) -> dict[str, Any]:
    doc = run_json(repo, "--dry-run", "--now", LATER)
    doc.pop("run_id", None)
    doc.pop("branch", None)
    return doc


def _cold(repo: Path) -> dict[str, Any]:
    """The dry run with every cache deleted first, put back afterwards for the next step."""
    names = [v for k, v in vars(statefiles).items() if k.endswith("_CACHE") and isinstance(v, str)]
    saved = {n: (_state(repo) / n).read_bytes() for n in names if (_state(repo) / n).is_file()}
    for name in names:
        (_state(repo) / name).unlink(missing_ok=True)
    doc = _dry(repo)
    for name, data in saved.items():
        (_state(repo) / name).write_bytes(data)
    return doc


def test_the_kept_facts_answer_as_the_records_do(repo: Path) -> None:
    assert _dry(repo) == _cold(repo)


def test_changes_behind_its_back_give_a_cold_runs_answer(repo: Path) -> None:
    # A record replaced through plain `git notes`: it cannot be read any more.
    corrupt_note(repo, "old-helper", "not a record")
    assert _dry(repo) == _cold(repo)
    # The notes ref moved back by git: the states the first pass recorded are gone.
    git("update-ref", "refs/notes/gitcurator", "refs/notes/gitcurator~1", cwd=repo)
    assert _dry(repo) == _cold(repo)
    # A use recorded since (a pending event in the journal), then a commit by plain git.
    assert run_cli("record", "use", "old-unused", "-C", str(repo)).code == 0
    assert _dry(repo) == _cold(repo)
    (repo / "half-used/SKILL.md").unlink()
    git("commit", "-qam", "removed behind its back", cwd=repo)
    assert _dry(repo) == _cold(repo)


FORGED = ("forged shape", "forged state", "forged edit")


@pytest.mark.parametrize("damage", [*KINDS, *FORGED, "unwritable"])
def test_a_damaged_facts_cache_is_ignored(repo: Path, damage: str, tmp_path: Path) -> None:
    cold = _cold(repo)
    cache = _state(repo) / PASS_RECORDS_CACHE
    if damage in FORGED:
        doc = json.loads(cache.read_text())
        # Every skill said to be in a state no record holds, or in the other state than its
        # record's: either would reach the report and the commits if it were believed.
        flip = {"active": "stale", "stale": "active"}
        doc["recorded"] = {
            "forged shape": {"old-helper": 5},
            "forged state": {name: "bogus" for name in SKILLS},
            "forged edit": {n: flip.get(doc["recorded"].get(n), "stale") for n in SKILLS},
        }[damage]
        cache.write_text(json.dumps(doc, separators=(",", ":")))
    elif damage == "unwritable":
        # A folder where the file belongs: neither read nor replaced (root is not stopped by
        # a read-only mode), and a real pass goes on without keeping its facts.
        cache.unlink()
        cache.mkdir()
        assert _dry(repo) == cold
        assert run_cli("run", "--now", LATER, "-C", str(repo)).code == 0
        assert cache.is_dir()
        return
    else:
        damage_cache(cache, damage, tmp_path / "elsewhere.json")
    assert _dry(repo) == cold

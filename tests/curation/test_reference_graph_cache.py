"""The reference graph kept beside the scan's candidates: used only for the very tree (and
config and absorbed names) it was made from, so a repository changed by plain git behind
gitcurator's back, or a damaged cache, gives the pass a cold run's answer."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from support.references import committed_library, configure, run_json
from support.repos import corrupt_note, git, run_cli

from gitcurator import statefiles
from gitcurator.statefiles import REFERENCES_CACHE

SKILLS = {
    "old-helper": "Helps with old things.",
    "old-unused": "Nobody needs this.",
    "old-by-agents": "Named by the team's AGENTS.md.",
    "daily-driver": "Every day. For the rare case, use `old-helper`.",
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return committed_library(
        tmp_path / "lib",
        monkeypatch,
        SKILLS,
        {"team/AGENTS.md": "Load skill:old-by-agents.\n"},
        agents=[*SKILLS],
        used=["daily-driver"],
    )


def _state(repo: Path) -> Path:
    return repo / ".git/gitcurator"


def _cold(repo: Path) -> dict[str, Any]:
    """The dry run with every cache deleted first (and left deleted: a dry run writes none)."""
    caches = [v for k, v in vars(statefiles).items() if k.endswith("_CACHE") and isinstance(v, str)]
    for name in caches:
        (_state(repo) / name).unlink(missing_ok=True)
    return run_json(repo, "--dry-run")


def _warm_then_cold(repo: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    assert (_state(repo) / REFERENCES_CACHE).is_file()
    saved = {p.name: p.read_bytes() for p in _state(repo).iterdir() if p.is_file()}
    warm = run_json(repo, "--dry-run")
    cold = _cold(repo)
    for name, data in saved.items():  # the warm caches back, for the next change
        (_state(repo) / name).write_bytes(data)
    return warm, cold


def _kept(doc: dict[str, Any]) -> dict[str, list[str]]:
    return {k["skill"]: k["referrers"] for k in doc.get("kept", [])}


def test_plain_git_changes_behind_its_back_give_a_cold_runs_answer(repo: Path) -> None:
    first = run_json(repo)  # a real pass: it writes the graph of this tree
    assert _kept(first) == {
        "old-by-agents": ["team/AGENTS.md:1"],
        "old-helper": ["daily-driver/SKILL.md:8"],
    }
    start = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    # A commit by plain git: daily-driver stops naming old-helper, AGENTS.md names old-unused.
    skill = repo / "daily-driver/SKILL.md"
    skill.write_text(skill.read_text().replace("`old-helper`", "the manual"))
    (repo / "team/AGENTS.md").write_text("Load skill:old-by-agents and skill:old-unused.\n")
    git("commit", "-qam", "edit behind its back", cwd=repo)
    warm, cold = _warm_then_cold(repo)
    assert warm == cold and _kept(warm) == {
        "old-by-agents": ["team/AGENTS.md:1"],
        "old-unused": ["team/AGENTS.md:1"],
    }
    run_json(repo, "--now", "2026-06-02T00:00:00Z")  # a real pass again: this tree's graph kept
    git("reset", "-q", "--hard", start, cwd=repo)  # and back to the first tree, by git
    warm, cold = _warm_then_cold(repo)
    assert warm == cold and _kept(warm) == _kept(first)
    # The config's reference files changed by git: the same tree, another graph.
    configure(repo, top={"reference_files": []})
    warm, cold = _warm_then_cold(repo)
    assert warm == cold and "old-by-agents" not in _kept(warm)
    # A record replaced through `git notes` (here by one that is no record at all).
    corrupt_note(repo, "old-helper", "not a record")
    warm, cold = _warm_then_cold(repo)
    assert warm == cold


def _graph_doc(repo: Path) -> tuple[str, dict[str, Any]]:
    header, _, text = (_state(repo) / REFERENCES_CACHE).read_text().partition("\n")
    return header, json.loads(text)


@pytest.mark.parametrize(
    "damage",
    [
        "garbage",
        "truncated",
        "forged graph shape",
        "symlink",
        "fifo",
        "read-only folder",
    ],
)
def test_a_damaged_graph_cache_is_ignored_and_rebuilt(
    repo: Path, damage: str, tmp_path: Path
) -> None:
    run_json(repo)  # a real pass writes the cache
    cache = _state(repo) / REFERENCES_CACHE
    whole = cache.read_bytes()
    cold = _cold(repo)
    cache.write_bytes(whole)
    assert run_json(repo, "--dry-run") == cold  # the cache as written agrees
    if damage == "garbage":
        cache.write_bytes(b"\x00\xff not json at all")
    elif damage == "truncated":
        cache.write_bytes(cache.read_bytes()[:-40])
    elif damage == "forged graph shape":
        # The digest recomputed, as a tool would: the graph's shape is checked all the same.
        _, doc = _graph_doc(repo)
        doc["graph"]["references"] = [["daily-driver", "yes", True, 5, "x", "p", "1", None]]
        text = json.dumps(doc, separators=(",", ":"))
        header = json.dumps({"version": 4, "sha1": hashlib.sha1(text.encode()).hexdigest()})
        cache.write_text(f"{header}\n{text}")
    elif damage == "symlink":
        elsewhere = tmp_path / "elsewhere.json"
        elsewhere.write_text("{}")
        cache.unlink()
        cache.symlink_to(elsewhere)
    elif damage == "fifo":
        cache.unlink()
        os.mkfifo(cache)
    if damage == "read-only folder":
        _state(repo).chmod(0o500)
        try:
            assert run_json(repo, "--dry-run") == cold
            result = run_cli("refs", "old-helper", "-C", str(repo))
        finally:
            _state(repo).chmod(0o700)
        assert result.code == 0, result
        return
    assert run_json(repo, "--dry-run") == cold
    assert run_cli("refs", "old-helper", "-C", str(repo)).code == 0  # rebuilds it
    assert cache.is_file() and not cache.is_symlink()
    _, doc = _graph_doc(repo)
    assert doc["graph"]["references"]
    assert run_json(repo, "--dry-run") == cold


def test_the_graph_is_found_from_the_end_of_the_checked_text_only_where_it_stands() -> None:
    from gitcurator.curation.reference_cache import _stored_graph

    graph = {"key": "k", "references": [], "notes": ['"graph":{"key":"forged"}']}
    tricky = {"a" * 40: [['x,"graph":{"key":"inner"}', 1]], "graph": graph}
    text = json.dumps(tricky, separators=(",", ":"), ensure_ascii=False)
    assert _stored_graph(text) == graph
    assert _stored_graph(json.dumps({"graph": graph}, separators=(",", ":"))) == graph
    # Anything after the graph, or a graph that is not whole: no graph (the scan runs).
    assert _stored_graph(text[:-1] + ',"more":1}') is None
    assert _stored_graph(text[:-2]) is None
    assert _stored_graph('{"a":[]}') is None

"""The catalogue's entries read through a content-addressed cache: a warm cache answers
without reading a SKILL.md, a damaged one is read past, a dry run writes none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.repos import run_cli

from gitcurator.curation.catalogue_cache import described_blobs, head_catalogue, skill_md_blobs
from gitcurator.library import open_repo
from gitcurator.lifecycle.catalogue_cost import catalogue_cost
from gitcurator.statefiles import CATALOGUE_CACHE

CACHE = Path(".git/gitcurator") / CATALOGUE_CACHE


def test_the_cache_keeps_each_live_skill_md_and_answers_from_it(repo: Path) -> None:
    with open_repo(repo) as opened:
        blobs = skill_md_blobs(opened.store.head_entries(), opened.config)
        first = described_blobs(opened.store, blobs)
    assert sorted(n for n, _ in first.values()) == ["docker-build", "helm-deploy", "pdf-extract"]
    cached = json.loads((repo / CACHE).read_text())
    assert set(cached) == {b.decode() for b in blobs}
    # A warm cache is what answers: change an entry and it is what comes back.
    key = blobs[0].decode()
    cached[key] = ["renamed", "From the cache."]
    (repo / CACHE).write_text(json.dumps(cached))
    with open_repo(repo) as opened:
        assert described_blobs(opened.store, blobs)[blobs[0]] == ("renamed", "From the cache.")


@pytest.mark.parametrize("damage", ["not json", "[1, 2]", '{"%s": [3]}', '{"%s": "x"}'])
def test_a_damaged_cache_is_read_past(repo: Path, damage: str) -> None:
    with open_repo(repo) as opened:
        blobs = skill_md_blobs(opened.store.head_entries(), opened.config)
        good = described_blobs(opened.store, blobs)
    text = damage % blobs[0].decode() if "%s" in damage else damage
    (repo / CACHE).write_text(text)
    with open_repo(repo) as opened:
        assert described_blobs(opened.store, blobs) == good
        cost = head_catalogue(opened, len, "chars")
    assert cost == catalogue_cost(
        [(n or "", d or "") for n, d in sorted(good.values())], len, "chars"
    )


def test_a_dry_run_writes_no_cache(repo: Path) -> None:
    assert run_cli("run", "--dry-run", "-C", str(repo)).code == 0
    assert not (repo / CACHE).exists()
    assert run_cli("status", "-C", str(repo)).code == 0
    assert (repo / CACHE).exists()

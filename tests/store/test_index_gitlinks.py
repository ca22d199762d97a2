"""store.index_gitlinks: the index's submodule links, cached by the index's own checksum."""

from __future__ import annotations

import json
from pathlib import Path

from support.repos import git

from gitcurator import statefiles
from gitcurator.store import Store
from gitcurator.store.index_gitlinks import index_gitlinks


def _cache(lib: Path) -> Path:
    return lib / ".git" / statefiles.STATE_DIR / statefiles.INDEX_LINKS_CACHE


def test_a_staged_link_is_found_and_its_removal_seen_through_the_cache(lib: Path) -> None:
    head = git("rev-parse", "HEAD", cwd=lib).stdout.strip()
    git("update-index", "--add", "--cacheinfo", f"160000,{head},vendored", cwd=lib)
    with Store.discover(lib) as store:
        assert index_gitlinks(store) == {"vendored"}
    assert json.loads(_cache(lib).read_text())["links"] == ["vendored"]
    git("update-index", "--force-remove", "vendored", cwd=lib)  # plain git, a new checksum
    with Store.discover(lib) as store:
        assert index_gitlinks(store) == set()


def test_a_cache_forged_for_another_index_is_not_read(lib: Path, store: Store) -> None:
    assert index_gitlinks(store) == set()
    doc = json.loads(_cache(lib).read_text())
    doc["links"] = ["planted"]
    doc["index"] = "0:" + "00" * 32
    _cache(lib).write_text(json.dumps(doc))
    assert index_gitlinks(store) == set()
    _cache(lib).write_text("{truncated")
    assert index_gitlinks(store) == set()

"""names_cache.py: the hot path's name -> skill cache, keyed by HEAD."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from gitcurator.statefiles import NAMES_CACHE
from gitcurator.telemetry import names_cache


def test_names_cache_round_trip_keyed_by_head(tmp_path: Path) -> None:
    state = tmp_path / "state"
    names = {"pdf-extract": "pdf-extract", "pdf-helper": "pdf-tools", "old-pdf": "pdf-extract"}
    head = "a" * 40
    assert names_cache.lookup(state, head, ["x"]) is None, "no cache yet"
    names_cache.write(state, head, names)
    assert names_cache.lookup(state, head, list(names)) == names
    assert names_cache.lookup(state, head, ["pdf", "extract", "pdf-extract"]) == {
        "pdf-extract": "pdf-extract"
    }, "a prefix or suffix of a name is not that name"
    assert names_cache.lookup(state, "b" * 40, ["x"]) is None, "HEAD moved: the cache is stale"
    assert names_cache.lookup(state, None, ["x"]) is None


@pytest.mark.parametrize(
    ("cache", "asked", "found"),
    [
        # names that are never skill names must not match the cache's line structure
        ("head H notes None archived\na\nb\n", [""], {}),
        ("head H notes None archived\na\nb\n", ["a\nb"], {}),
        ("head H notes None archived\nold\tnew\nnew\n", ["old\tnew"], {}),
        # a cache cut short (no final newline) is read as far as it is whole
        ("head H notes None archived\na\nb", ["a", "b"], {"a": "a"}),
        ("head H notes None archived\na\nold\tne", ["a", "old"], {"a": "a"}),
    ],
)
def test_names_cache_lookup_of_odd_names_and_a_cut_short_cache(
    tmp_path: Path, cache: str, asked: list[str], found: dict[str, str]
) -> None:
    (tmp_path / NAMES_CACHE).write_text(cache.replace("H", "a" * 40))
    assert names_cache.lookup(tmp_path, "a" * 40, asked) == found


def test_a_names_cache_that_is_not_utf8_is_no_cache(tmp_path: Path) -> None:
    (tmp_path / NAMES_CACHE).write_bytes(b"head " + b"a" * 40 + b" notes None archived\n\xae\xff\n")
    assert names_cache.lookup(tmp_path, "a" * 40, ["x"]) is None


def test_names_cache_for_an_unborn_head(tmp_path: Path) -> None:
    names_cache.write(tmp_path, None, {"x": "x"})
    assert names_cache.lookup(tmp_path, None, ["x"]) == {"x": "x"}
    assert names_cache.lookup(tmp_path, "a" * 40, ["x"]) is None


def test_names_cache_written_by_racing_threads_stays_whole(tmp_path: Path) -> None:
    names = {f"skill-{i}": f"skill-{i}" for i in range(3000)}
    errors: list[BaseException] = []

    def write() -> None:
        try:
            names_cache.write(tmp_path, "c" * 40, names)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert names_cache.lookup(tmp_path, "c" * 40, list(names)) == names
    assert [p.name for p in tmp_path.iterdir()] == [NAMES_CACHE]

"""rows_cache.read_rows_only (what a pass reads): the rows read_rows gives, parsed only up to
list's texts; a file cut or forged before them is refused as read_rows refuses it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.repos import run_cli

from gitcurator import statefiles
from gitcurator.curation import rows_cache
from gitcurator.library import open_repo
from gitcurator.telemetry.recording import record
from gitcurator.timeutil import utc_now


@pytest.fixture
def kept(repo: Path) -> Path:
    """`repo` with uses recorded from two sources, one named `texts`, and its rows kept by
    `list`."""
    # Its uses by source come out as {"claude":1,"texts":1}: the texts' key inside the rows.
    for source in ("claude", "texts"):
        record("use", ["pdf-extract", "docker-build"], repo=repo, source=source)
    assert run_cli("flush", "-C", str(repo)).code == 0
    assert run_cli("list", "--json", "-C", str(repo)).code == 0
    return repo


def _both(repo: Path) -> tuple[object, object]:
    with open_repo(repo) as opened:
        key = rows_cache.rows_key(opened, opened.store.head_commit())
        latest, now = rows_cache.reader_latest(), utc_now()
        whole = rows_cache.read_rows(opened, key, latest, now)
        only = rows_cache.read_rows_only(opened, key, latest, now)
    return (None if whole is None else whole.rows), (None if only is None else only.rows)


def _cache(repo: Path) -> Path:
    return repo / ".git" / statefiles.STATE_DIR / statefiles.ROWS_CACHE


def test_the_rows_are_read_rows_own(kept: Path) -> None:
    whole, only = _both(kept)
    assert whole is not None and whole == only
    rows = json.loads(_cache(kept).read_text())["rows"]
    assert ',"texts":' in json.dumps(rows, separators=(",", ":"))


def test_a_file_cut_or_forged_before_its_texts_is_refused(kept: Path) -> None:
    cache = _cache(kept)
    data = cache.read_bytes()
    rows_at = data.index(b'"rows":')
    for damaged in (
        data[: rows_at + 40],  # cut inside the rows
        data[:rows_at] + b'"rows":[[1]],' + data[data.index(b'"anchors":') :],  # a forged row
        data.replace(b',"texts":', b',"text":'),  # no texts key at all
    ):
        cache.write_bytes(damaged)
        assert _both(kept)[1] is None
    # Cut inside the texts only: the rows before them are whole, and are the rows.
    cache.write_bytes(data)
    whole, _ = _both(kept)
    cache.write_bytes(data[:-30])
    assert _both(kept) == (None, whole)

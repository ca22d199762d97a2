"""`list` in a big library loads the notes' records and walks for nested repositories in
children beside its own work: what it shows is what it shows without them, and a child that
fails costs only its head start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.children import drop_caches, failing_in_children, logged
from support.repos import corrupt_note, git, run_cli

from gitcurator import forked
from gitcurator.commands import skill_rows
from gitcurator.statefiles import RECORDS_CACHE
from gitcurator.store import Store
from gitcurator.telemetry import notes_records, records_cache


def _library(repo: Path) -> None:
    r = str(repo)
    assert run_cli("track", "pdf-extract", "docker-build", "--origin", "agent", "-C", r).code == 0
    assert (
        run_cli("record", "use", "pdf-extract", "--at", "2026-02-01T10:00:00Z", "-C", r).code == 0
    )
    assert run_cli("flush", "-C", r).code == 0
    corrupt_note(repo, "helm-deploy", "{not json")
    for nested in ("cloned", os.fsdecode(b"caf\xe9")):  # a name that is not UTF-8, too
        (repo / nested).mkdir()
        git("init", "-q", cwd=repo / nested)


@pytest.mark.parametrize("child_fails", [False, True])
def test_list_beside_its_children_shows_what_it_shows_alone(
    dated_repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, child_fails: bool
) -> None:
    _library(dated_repo)
    loaders: list[int] = []
    monkeypatch.setattr(
        notes_records, "load_notes", logged(tmp_path / "loaders", notes_records.load_notes)
    )
    said = []
    for beside in (False, True):
        if beside:
            monkeypatch.setattr(skill_rows, "_BIG_INDEX", 0)
            monkeypatch.setattr(forked.os, "cpu_count", lambda: 2)
            if child_fails:
                targets = (notes_records, "load_notes"), (Store, "nested_repositories")
                failing_in_children(monkeypatch, *targets)
        for args in (("list", "--json"), ("list",)):
            drop_caches(dated_repo)
            (tmp_path / "loaders").unlink(missing_ok=True)
            shown = run_cli(*args, "-C", str(dated_repo))
            assert shown.code == 0, shown.err
            said.append((shown.out, shown.err))
            log = tmp_path / "loaders"
            loaders += [int(x) for x in log.read_text().split()] if log.exists() else []
    assert said[:2] == said[2:]
    assert "caf" in said[0][1] and "cloned" in said[0][1]  # both nested repositories named
    assert "not a gitcurator record" in said[0][1]  # the stray note is still reported
    # Only beside are the records loaded through notes_records.load_notes (ledger.load's own
    # import is not the one patched): in a child, which left them in the cache, unless it
    # failed before loading and list loaded them itself.
    if child_fails:
        assert loaders == []
    else:
        assert len(loaders) == 2 and os.getpid() not in loaders


def test_the_records_cache_says_which_notes_commit_it_is_for(dated_repo: Path) -> None:
    r = str(dated_repo)
    assert run_cli("record", "use", "pdf-extract", "-C", r).code == 0
    assert run_cli("flush", "-C", r).code == 0
    with Store.discover(dated_repo) as store:
        assert run_cli("list", "-C", r).code == 0
        assert notes_records.cached(store)
        path = store.state_dir() / RECORDS_CACHE
        commit = git("rev-parse", "refs/notes/gitcurator", cwd=dated_repo).stdout.strip()
        assert records_cache.holds(path, commit)
        assert not records_cache.holds(path, "0" * 40)
        assert not records_cache.holds(path, None)
        path.write_bytes(b'{"notes":"' + commit[:20].encode())  # truncated in its key
        assert not records_cache.holds(path, commit)
        path.unlink()
        os.mkfifo(path)  # never opened for a blocking read
        assert not records_cache.holds(path, commit)
        assert not notes_records.cached(store)

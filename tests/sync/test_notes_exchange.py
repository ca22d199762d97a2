"""sync/notes_exchange.py: the remote's notes merged into the local ones (one repository here;
the exchange with real remotes is tested end to end in tests/commands/test_sync.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.remotes import T1, record
from support.repos import git

from gitcurator.library import open_store
from gitcurator.store import ObjectID
from gitcurator.store.notes import NOTES_REF
from gitcurator.store.refs import ref_value
from gitcurator.store.remote import RemoteError, resolve_remote
from gitcurator.sync.notes_exchange import check_notes_tip, merge_into_local
from gitcurator.telemetry import ledger


def test_a_remote_notes_tip_that_is_no_commit_is_refused(repo: Path) -> None:
    tree = ObjectID(git("rev-parse", "HEAD^{tree}", cwd=repo).stdout.strip().encode())
    with open_store(repo) as store:
        remote = resolve_remote(store, str(repo))
        check_notes_tip(store, remote, None)  # no notes there yet: nothing to check
        with pytest.raises(RemoteError, match="points at a tree"):
            check_notes_tip(store, remote, tree)


def test_a_remote_without_notes_gets_every_local_record(repo: Path) -> None:
    record(repo, "pdf-extract", 2, T1)
    record(repo, "docker-build", 1, T1)
    with open_store(repo) as store:
        ledger.flush(store)
        local = ref_value(store, NOTES_REF)
        step = merge_into_local(store, resolve_remote(store, str(repo)), None)
    assert step.tip == local and step.merge_commit is None
    assert step.to_send == 2 and step.updated_here == 0


def test_a_remote_that_is_behind_is_pushed_to_without_a_merge(repo: Path) -> None:
    record(repo, "pdf-extract", 1, T1)
    with open_store(repo) as store:
        ledger.flush(store)
        behind = ref_value(store, NOTES_REF)
    record(repo, "docker-build", 1, T1)
    with open_store(repo) as store:
        ledger.flush(store)
        step = merge_into_local(store, resolve_remote(store, str(repo)), behind)
        assert step.tip == ref_value(store, NOTES_REF) != behind
    assert step.merge_commit is None and step.to_send == 1

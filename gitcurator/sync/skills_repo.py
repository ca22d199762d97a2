"""Whether a repository is one `sync` may exchange telemetry with: a skills repository, as
`gitcurator init` leaves it (.gitcurator.yaml at the top of the default branch) or as a sync
left it (gitcurator's notes, curator branches). Syncing a project that merely happens to be a
git repository would push notes and curator branches into it, or take its history in."""

from __future__ import annotations

from collections.abc import Mapping

from gitcurator.config import CONFIG_FILE
from gitcurator.errors import CuratorError
from gitcurator.store import ObjectID, Store
from gitcurator.store.notes import NOTES_REF
from gitcurator.store.refs import ref_value
from gitcurator.store.remote import Remote
from gitcurator.store.trees import file_at
from gitcurator.sync.branch_exchange import BRANCHES

DEFAULT_BRANCHES = (b"HEAD", b"refs/heads/main", b"refs/heads/master")


class NotSkillsRepository(CuratorError):
    """One side of a sync is a git repository but not a skills repository."""


def gitcurator_refs(refs: Mapping[bytes, ObjectID]) -> bool:
    """Do `refs` hold gitcurator's notes or a curator branch?"""
    return NOTES_REF in refs or any(ref.startswith(BRANCHES) for ref in refs)


def check_local(store: Store) -> None:
    """Refuse to sync a local repository that is not a skills repository."""
    if (store.root / CONFIG_FILE).is_file() or ref_value(store, NOTES_REF) is not None:
        return
    head = store.head_commit()
    if head is not None and _holds_config(store, head):
        return
    raise NotSkillsRepository(
        f"{store.root} is not a skills repository (no {CONFIG_FILE}, no gitcurator notes), "
        "so sync would push telemetry from and into a repository that has none; run "
        f"`gitcurator init {store.root}` first, or `gitcurator sync --force` to sync anyway"
    )


def check_remote(store: Store, remote: Remote, refs: Mapping[bytes, ObjectID]) -> None:
    """Refuse a remote that holds refs but none of a skills repository. An empty remote is
    taken: there is nothing in it to mix with (a new bare repository for sharing)."""
    if not refs or gitcurator_refs(refs):
        return
    for name in DEFAULT_BRANCHES:
        tip = refs.get(name)
        if tip is not None and _holds_config(store, tip):
            return
    raise NotSkillsRepository(
        f"remote {remote.shown} is not a skills repository (its default branch has no "
        f"{CONFIG_FILE}, and it holds no gitcurator notes or curator branches); nothing was "
        "changed. Check the remote's URL, or run `gitcurator sync --force` to sync with it "
        "anyway"
    )


def _holds_config(store: Store, commit: ObjectID) -> bool:
    try:
        return file_at(store, commit, CONFIG_FILE) is not None
    except KeyError:  # the commit was not fetched: nothing tells it is one
        return False

"""The curator-branch half of a sync: which curator/* branches go which way.

A branch one side lacks and never had is sent there (a pass to review as a pull request); an
existing branch is never moved, and one a side deleted since the last sync is not brought
back. What the remote had at the last sync is remembered under Remote.branch_mirror.
"""

from __future__ import annotations

import contextlib

from gitcurator.audit.trailers import BRANCH_PREFIX
from gitcurator.errors import CuratorError
from gitcurator.store import ObjectID, Store
from gitcurator.store.branch_clash import clash_of, in_the_way
from gitcurator.store.refs import delete_ref, local_refs, move_ref, ref_value, set_ref
from gitcurator.store.remote import Remote

BRANCHES = b"refs/heads/" + BRANCH_PREFIX.encode()
_HEADS = b"refs/heads/"


def seen_branches(store: Store, remote: Remote) -> set[bytes]:
    """The curator branches (full ref names) the remote had at the last sync."""
    mirror = remote.branch_mirror
    return {_HEADS + r[len(mirror) :] for r in local_refs(store, mirror)}


def branch_pushes(
    store: Store, remote_refs: dict[bytes, ObjectID], seen: set[bytes]
) -> dict[bytes, tuple[ObjectID | None, ObjectID]]:
    """Local curator branches the remote lacks and never had (a pass to review as a pull
    request); one the remote had and deleted (merged there, or dropped) is not sent back."""
    return {
        ref: (None, sha)
        for ref, sha in local_refs(store, BRANCHES).items()
        if ref not in remote_refs and ref not in seen and _remote_clash(ref, remote_refs) is None
    }


def blocked_pushes(
    store: Store, remote_refs: dict[bytes, ObjectID], seen: set[bytes], remote_name: str
) -> list[str]:
    """A warning for each branch branch_pushes leaves out, a remote branch in its way (`curator`
    for `curator/x`): sent, it failed the whole push, the notes' too, on every sync."""
    warnings = []
    for ref in sorted(local_refs(store, BRANCHES)):
        clash = None if ref in remote_refs or ref in seen else _remote_clash(ref, remote_refs)
        if clash is not None:
            name, there = ref[len(_HEADS) :].decode(), clash[len(_HEADS) :].decode()
            warnings.append(f"{name} was not pushed: {in_the_way(there, remote_name)}")
    return warnings


def _remote_clash(ref: bytes, remote_refs: dict[bytes, ObjectID]) -> bytes | None:
    """The remote's ref that a folder of `ref` names, or one inside the folder `ref` would be."""
    parts = ref.split(b"/")
    above = (b"/".join(parts[:i]) for i in range(3, len(parts)))  # past refs/heads/
    clash = next((a for a in above if a in remote_refs), None)
    return clash or next((r for r in sorted(remote_refs) if r.startswith(ref + b"/")), None)


def fetch_branches(
    store: Store, remote_refs: dict[bytes, ObjectID], seen: set[bytes], remote_name: str
) -> tuple[list[str], list[str]]:
    """Create the remote's curator branches that are new to this clone; never move an
    existing one, and never bring back one deleted here since the last sync.

    Returns the branches created and a warning for each one left as it was.
    """
    created: list[str] = []
    warnings: list[str] = []
    for ref, sha in sorted(remote_refs.items()):
        if not ref.startswith(BRANCHES):
            continue
        name = ref[len(_HEADS) :].decode()
        mine = ref_value(store, ref)
        if mine is None:
            if ref in seen:
                continue  # deleted here after the last sync: the person's decision stands
            clash = clash_of(store, name)  # a person's branch `curator`: exit 3 here
            if clash is not None:
                warnings.append(f"{name} could not be created here: {in_the_way(clash)}")
            elif move_ref(store, ref, None, sha):
                created.append(name)
            else:
                warnings.append(
                    f"{name} could not be created here (another process holds its lock); "
                    "sync again to fetch it"
                )
        elif mine != sha:
            warnings.append(
                f"{name} differs here and on remote {remote_name}; neither was changed "
                "(compare the two with git)"
            )
    return created, warnings


def remember_branches(
    store: Store,
    remote: Remote,
    remote_refs: dict[bytes, ObjectID],
    seen: set[bytes],
    pushed: set[bytes],
) -> None:
    """Remember the remote's curator branches this clone has or had, and those just pushed:
    one that could not be created here (locked) stays new, so the next sync fetches it."""
    there = {
        r: v
        for r, v in remote_refs.items()
        if r.startswith(BRANCHES) and (r in seen or ref_value(store, r) is not None)
    }
    there.update({r: local_refs(store, BRANCHES)[r] for r in pushed})
    _mirror_branches(store, remote, there)


def _mirror_branches(store: Store, remote: Remote, there: dict[bytes, ObjectID]) -> None:
    """Mirror the remote's curator branches as they are now (see Remote.branch_mirror)."""
    mirror = remote.branch_mirror
    wanted = {mirror + r[len(_HEADS) :]: sha for r, sha in there.items()}
    here = {mirror + r[len(_HEADS) :] for r in local_refs(store, BRANCHES)}
    # A branch gone from the remote is forgotten only once it is gone here too; until then
    # the memory keeps it from being pushed back.
    for ref in set(local_refs(store, mirror)) - set(wanted) - here:
        delete_ref(store, ref)
    for ref, sha in wanted.items():
        if ref_value(store, ref) != sha:
            with contextlib.suppress(CuratorError):  # only a memory; the next sync retries
                set_ref(store, ref, sha)

"""Talking to a git remote through dulwich: fetch refs by name, push by compare-and-swap.

Any transport dulwich speaks works: a path or `file://` URL, `git://`, smart HTTP(S) and ssh.
Fetch and push are the client's own `fetch_pack` / `send_pack`, not porcelain: porcelain's
fetch takes no refspec (we want a few refs into a side namespace, not `refs/remotes/`), and
its push decides what to send itself, where `sync` must push a ref only if the remote still
holds the value that was merged (a push never forces). Every transport failure becomes one
RemoteError that names the remote, raised before anything local changed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from tempfile import SpooledTemporaryFile
from typing import TYPE_CHECKING, Any

from dulwich import client as dulwich_client
from dulwich.errors import GitProtocolError, HangupException, NotGitRepository, SendPackError
from dulwich.file import FileLocked
from dulwich.objects import ZERO_SHA, ObjectID
from dulwich.refs import Ref

from gitcurator.store import thin_pack
from gitcurator.store.credentials import stored_credentials
from gitcurator.store.push_buffer import buffered_writes
from gitcurator.store.push_pack import push_pack
from gitcurator.store.remote import Remote, RemoteError
from gitcurator.store.remote_deadline import (
    ENV,
    SilenceBoundSSHVendor,
    http_pool,
    remote_timeout,
    socket_timeout,
    timed_out,
)
from gitcurator.store.remote_url import check_location

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

# How receive-pack words a refusal caused by a concurrent update of the ref.
_MOVED_WORDS = (
    "lock",
    "stale",
    "expected",
    "fetch first",
    "non-fast-forward",
    "moved",
    "failed to update ref",
    "unable to set",  # dulwich's local client losing the compare-and-swap
    "failed to write",
    "atomic push failed",
)
_PACK_SPOOL = 8 * 1024 * 1024


@dataclass(slots=True)
class Fetched:
    """The remote's refs (all it advertised) and what the fetch brought."""

    refs: dict[bytes, ObjectID]
    pack_bytes: int = 0


@dataclass(slots=True)
class Pushed:
    """Which refs the remote took, which it refused (ref -> reason), and what was sent."""

    updated: set[bytes] = field(default_factory=set)
    refused: dict[bytes, str] = field(default_factory=dict)
    # Refused because the ref moved or was being written (fetch and try again); the others
    # were refused for good (a hook, permissions) and trying again would not help.
    moved: set[bytes] = field(default_factory=set)
    objects: int = 0


class Connection:
    """One remote opened through the dulwich client its URL calls for."""

    def __init__(self, store: Store, remote: Remote, progress: Callable[[bytes], None] | None):
        self.store = store
        self.remote = remote
        self.progress = progress
        # Checked first, so that a bad value or URL is refused before anything is opened.
        self.timeout = remote_timeout()
        if remote.name != remote.url:
            check_location(remote.url, f"the URL of remote {remote.name}")
        self._client: Any = None
        self._path = ""

    def _open(self) -> tuple[Any, str]:
        if self._client is None:
            username, password = stored_credentials(self.remote.url)
            config = self.store.repo.get_config_stack()
            url = self.remote.url
            http = url.split("://", 1)[0].lower() in ("http", "https")
            with self._failures("open"):
                self._client, self._path = dulwich_client.get_transport_and_path(
                    url,
                    config=config,
                    quiet=self.progress is None,
                    ssh_command=os.environ.get("GIT_SSH_COMMAND") or os.environ.get("GIT_SSH"),
                    username=username,
                    password=password,
                    pool_manager=http_pool(config, url, self.timeout) if http else None,
                )
            if isinstance(self._client, dulwich_client.SSHGitClient):
                self._client.ssh_vendor = SilenceBoundSSHVendor(self.timeout)
        return self._client, self._path

    def close(self) -> None:
        """Close the client's connection, if one was opened."""
        if self._client is not None:
            self._client.close()

    def fetch(self, wanted: Callable[[bytes], bool], fallback: Sequence[bytes] = ()) -> Fetched:
        """Fetch the objects of the remote refs `wanted` selects (no local ref moves); when it
        selects none, those of the first ref in `fallback` that the remote has."""
        client, path = self._open()
        objects = self.store.repo.object_store
        counted = 0

        def determine_wants(refs: Mapping[bytes, ObjectID | None], depth: Any = None) -> list[Any]:
            live = {ref: sha for ref, sha in refs.items() if sha and sha != ZERO_SHA}
            chosen = {sha for ref, sha in live.items() if wanted(ref)}
            if not chosen:
                first = next((live[ref] for ref in fallback if ref in live), None)
                chosen = {first} if first is not None else set()
            return sorted(sha for sha in chosen if sha not in objects)

        # The pack is spooled and added in one go, as dulwich's own fetch does; we keep the
        # byte count (what came over the wire, before the thin pack is completed).
        with (
            SpooledTemporaryFile(
                max_size=_PACK_SPOOL, prefix="incoming-", dir=getattr(objects, "path", None)
            ) as spool,
            self._failures("fetch from"),
            socket_timeout(self.timeout),
        ):

            def pack_data(data: bytes) -> int:
                nonlocal counted
                counted += len(data)
                spool.write(data)
                return len(data)

            result = client.fetch_pack(
                path,
                determine_wants,
                # Our notes (and the side refs) must be haves too, or every fetch would bring
                # the whole notes history again: dulwich's default offers refs/heads only.
                self.store.repo.get_graph_walker(_haves(self.store)),
                pack_data,
                progress=self.progress,
            )
            size = spool.tell()
            if size:
                spool.seek(0)
                # dulwich's add_thin_pack walks the pack three times in Python (0.5 s of a
                # merge step's 540 KB at 10,000 skills): store.thin_pack reads it once.
                thin_pack.store_fetched_pack(objects, spool.read, size, self.progress)
        refs = {r: s for r, s in result.refs.items() if s is not None and s != ZERO_SHA}
        return Fetched(refs, counted)

    def push(self, updates: Mapping[bytes, tuple[ObjectID | None, ObjectID]]) -> Pushed:
        """Set remote refs to new values only where they still hold the old ones (None: the
        ref must not exist). A ref that moved meanwhile is refused, never overwritten."""
        client, path = self._open()
        pushed = Pushed()
        repo = self.store.repo

        def update_refs(refs: dict[Ref, ObjectID]) -> dict[Ref, ObjectID]:
            new: dict[Ref, ObjectID] = {}
            for ref, (old, sha) in updates.items():
                current = refs.get(Ref(ref))
                if current == ZERO_SHA:
                    current = None
                if current != old:
                    pushed.refused[ref] = "the remote moved since it was fetched"
                    pushed.moved.add(ref)
                else:
                    new[Ref(ref)] = sha
            return new

        def generate(
            have: Collection[ObjectID], want: Collection[ObjectID], **kwargs: Any
        ) -> tuple[int, Iterator[Any]]:
            # Only what differs from the remote's commits, as deltas against their objects
            # (store.push_pack): the whole-object pack was 2.1x the bytes of `git push`.
            pack = push_pack(repo.object_store, have, want)
            pushed.objects = len(pack.objects)
            ofs_delta = bool(kwargs.get("ofs_delta", False))
            return len(pack.objects), pack.records(repo.object_store, ofs_delta)

        with self._failures("push to"), socket_timeout(self.timeout), buffered_writes(client):
            try:
                result = client.send_pack(
                    path.encode(), update_refs, generate, progress=self.progress
                )
            except FileLocked:
                # A local remote whose ref another process is writing right now: the same as
                # a refused push (the caller fetches again), never an overwrite.
                for ref in updates:
                    pushed.refused.setdefault(
                        ref,
                        "the ref is locked (another process is writing it, or a stale .lock "
                        "file was left in the remote)",
                    )
                    pushed.moved.add(ref)
                return pushed
        statuses = result.ref_status or {}
        for ref in updates:
            if ref in pushed.refused:
                continue
            error = statuses.get(ref)
            if error is not None:
                pushed.refused[ref] = str(error)
                if any(w in str(error).lower() for w in _MOVED_WORDS):
                    pushed.moved.add(ref)
            else:
                pushed.updated.add(ref)
        return pushed

    @contextlib.contextmanager
    def _failures(self, doing: str) -> Iterator[None]:
        """Every way a transport fails, as one RemoteError naming the remote."""
        try:
            yield
        except Exception as exc:
            error = self._as_remote_error(doing, exc)
            if error is None:
                raise
            raise error from None

    def _as_remote_error(self, doing: str, exc: Exception) -> RemoteError | None:
        where = f"cannot {doing} remote {self.remote.shown}"
        # First: a timeout arrives as OSError, or wrapped in a GitProtocolError (HTTP).
        if timed_out(exc):
            return RemoteError(
                f"{where}: it said nothing for {self.timeout:g} s (${ENV}); check that the "
                f"remote is up and reachable, or allow it longer with {ENV}=SECONDS"
            )
        if isinstance(exc, dulwich_client.HTTPUnauthorized):
            return RemoteError(
                f"{where}: it refused the credentials (HTTP 401); put them in the URL or in "
                "~/.git-credentials and run `gitcurator sync` again"
            )
        if isinstance(exc, dulwich_client.HTTPProxyUnauthorized):
            return RemoteError(f"{where}: the proxy refused the credentials (HTTP 407)")
        if isinstance(exc, thin_pack.ForeignPack):
            return RemoteError(f"{where}: {exc}; nothing was stored here")
        if isinstance(exc, thin_pack.DamagedPack):
            return RemoteError(f"{where}: {exc}; nothing was stored here, try again")
        if isinstance(exc, NotGitRepository):
            return RemoteError(f"{where}: it is not a git repository (check the URL or path)")
        if isinstance(exc, HangupException | GitProtocolError | SendPackError):
            return RemoteError(f"{where}: {str(exc).strip() or type(exc).__name__}")
        if isinstance(exc, OSError | ValueError):
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return RemoteError(f"{where}: {detail or type(exc).__name__}")
        return None


def _haves(store: Store) -> list[ObjectID]:
    objects = store.repo.object_store
    found = {
        sha
        # refs/gitcurator: the upstream sources `add` and `update` keep (store.source_fetch).
        for base in (b"refs/heads", b"refs/notes", b"refs/gitcurator")
        for sha in store.repo.refs.as_dict(Ref(base)).values()
    }
    return sorted(sha for sha in found if sha in objects)

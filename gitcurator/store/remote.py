"""A git remote as the user names it: a configured remote, a URL or a path, resolved to one
`Remote` (the transport that talks to it is `store.transport`)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitcurator.errors import CuratorError
from gitcurator.store.remote_url import RemoteError, check_location, is_scp_like, is_url

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

SIDE_PREFIX = b"refs/notes/gitcurator-remotes/"

__all__ = ["Remote", "RemoteError", "configured_remotes", "resolve_remote"]


@dataclass(frozen=True, slots=True)
class Remote:
    """A remote as the user named it and the URL or path it resolved to."""

    name: str
    url: str

    @property
    def side_ref(self) -> bytes:
        """Where the remote's notes are fetched to, beside (never over) the local notes."""
        if re.fullmatch(r"[A-Za-z0-9._-]{1,64}", self.name) and not self.name.startswith("."):
            return SIDE_PREFIX + self.name.encode()
        # A URL given directly: one stable ref per URL.
        return SIDE_PREFIX + b"url-" + hashlib.sha1(self.url.encode()).hexdigest()[:12].encode()

    @property
    def branch_mirror(self) -> bytes:
        """Where the names of the remote's curator branches are remembered (one ref each, at
        the commit last seen there): a branch deleted on one side is then not brought back
        from the other."""
        return b"refs/gitcurator-remotes/" + self.side_ref.rsplit(b"/", 1)[1] + b"/"

    @property
    def location(self) -> str:
        """The URL or path, with any password in it masked."""
        return _without_password(self.url)

    @property
    def shown(self) -> str:
        """The remote for messages: its name and, when it differs, where it points."""
        return (
            self.location
            if self.name in (self.url, self.location)
            else (f"{self.name} ({self.location})")
        )


def configured_remotes(store: Store) -> dict[str, str]:
    """Remote name -> URL from .git/config."""
    config = store.repo.get_config()
    found = {}
    for section in config.sections():
        if len(section) == 2 and section[0] == b"remote":
            with contextlib.suppress(KeyError):
                found[section[1].decode("utf-8", "replace")] = config.get(section, b"url").decode(
                    "utf-8", "replace"
                )
    return found


def resolve_remote(store: Store, spec: str) -> Remote:
    """A configured remote's name, a URL or a path to a repository; else RemoteError saying
    what is wrong with it (no such folder, a malformed or unsupported URL) or listing the
    configured remotes."""
    remotes = configured_remotes(store)
    if spec in remotes:
        url = remotes[spec]
        if _is_relative_path(url):
            # As git does: a configured relative path is relative to the work tree, wherever
            # the command runs from.
            url = os.path.normpath(os.path.join(store.root, url))
        return Remote(spec, url)  # checked when connecting (store.transport)
    if is_url(spec) or is_scp_like(spec) or _names_a_path(spec):
        url = (
            spec if is_url(spec) or is_scp_like(spec) else os.path.abspath(os.path.expanduser(spec))
        )
        check_location(url, "the remote URL")
        # The same remote by its URL is the same remote: one memory of its branches.
        for name, configured in remotes.items():
            if _same_location(store, configured, url):
                return resolve_remote(store, name)
        return Remote(spec, url)
    known = ", ".join(sorted(remotes)) if remotes else "none is configured"
    raise CuratorError(
        f"no remote named {spec!r} (remotes: {known}), and no folder of that name here; give "
        "a remote's name, a URL or the path of a repository, or add one with "
        "`git remote add NAME URL`"
    )


def _absolute(path: str) -> str:
    return os.path.abspath(os.path.expanduser(path))


def _names_a_path(spec: str) -> bool:
    """Is `spec` meant as a path (rather than a remote's name)?"""
    return os.path.exists(spec) or "/" in spec or os.sep in spec or spec.startswith((".", "~"))


def _same_location(store: Store, configured: str, url: str) -> bool:
    configured, url = configured.removeprefix("file://"), url.removeprefix("file://")
    if _is_relative_path(configured):
        configured = os.path.join(store.root, configured)
    if "://" in configured or "://" in url:
        return configured.rstrip("/") == url.rstrip("/")
    return os.path.realpath(configured) == os.path.realpath(url)


def _is_relative_path(url: str) -> bool:
    return not (is_url(url) or is_scp_like(url) or os.path.isabs(url))


def _without_password(url: str) -> str:
    return re.sub(r"(://[^/:@]+):[^/@]*@", r"\1:***@", url)

"""What makes a remote's URL or path one that `sync` can reach, said before anything is
opened: a malformed URL, a scheme git does not speak, a path that is not there."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote, urlsplit

from gitcurator.errors import CuratorError

SCHEMES = ("ssh", "git+ssh", "git", "http", "https", "file")
_SCP_LIKE = re.compile(r"^[^/\s]+@[^/\s]+:")
_SPOKEN = "ssh://, git://, http(s)://, file://, user@host:path or the path of a repository"


class RemoteError(CuratorError):
    """The remote could not be reached, read or written (network, auth, not a repository)."""


def is_scp_like(location: str) -> bool:
    """`user@host:path`, the form git gives ssh remotes."""
    return bool(_SCP_LIKE.match(location))


def is_url(location: str) -> bool:
    """A URL with a scheme (as opposed to a path or an scp-like address)."""
    return "://" in location


def check_location(location: str, what: str) -> None:
    """Refuse a location that cannot be a remote, saying what is wrong with it; `what` names
    it in the message ("the remote URL", "remote origin's URL")."""
    if is_scp_like(location) and not is_url(location):
        return
    if not is_url(location):
        if not os.path.exists(location):
            raise RemoteError(
                f"no such folder: {location} ({what}); give the path of a repository, a URL "
                "or a configured remote's name"
            )
        return
    scheme = location.split("://", 1)[0]
    if scheme.lower() not in SCHEMES:
        raise RemoteError(
            f"{what} {location} uses {scheme}://, which is not a git transport; use {_SPOKEN}"
        )
    try:
        parts = urlsplit(location)
        port = parts.port  # raises on a port that is not a number in range
    except ValueError as exc:
        raise RemoteError(
            f"{what} {location} is not a valid URL ({exc}); check the brackets around an IPv6 "
            "address and the port"
        ) from None
    if scheme.lower() == "file":
        path = unquote(parts.path)
        if not os.path.exists(path):
            raise RemoteError(f"no such folder: {path} ({what} {location})")
        return
    if not parts.hostname:
        raise RemoteError(f"{what} {location} has no host name; check the URL")
    if port == 0:
        raise RemoteError(f"{what} {location} has port 0; check the URL")

"""Who a command's commits are by and when: values the shell reads once and hands to the store.

The store never reads GIT_AUTHOR_* / GIT_COMMITTER_* itself; `gitcurator.library` reads them
(with git's fallbacks) when it opens a repository for a command.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Identity:
    """A person as a commit names them."""

    name: str
    email: str

    def as_bytes(self) -> bytes:
        """`Name <email>`, as commits and reflogs write it."""
        return f"{self.name} <{self.email}>".encode()


@dataclass(frozen=True, slots=True)
class Signature:
    """The identity a command's commits carry (as author and committer) and their dates.

    The dates are git's GIT_AUTHOR_DATE / GIT_COMMITTER_DATE as given (tests and replays date
    commits the way they date git's own); empty means the clock when each commit is made, and
    a value is parsed only when a commit is made, so a bad one fails only a command that commits.
    """

    identity: Identity
    author_date: str = ""
    committer_date: str = ""

    def times(self) -> tuple[int, int]:
        """(author, committer) seconds since the epoch for a commit made now."""
        return (
            _seconds(self.author_date, "GIT_AUTHOR_DATE"),
            _seconds(self.committer_date, "GIT_COMMITTER_DATE"),
        )


def _seconds(value: str, var: str) -> int:
    value = value.strip()
    if not value:
        return int(time.time())
    epoch = value.lstrip("@").split()[0]
    if epoch.isdigit():
        return int(epoch)
    from gitcurator.timeutil import parse_time

    return int(parse_time(value, var).timestamp())

"""gitcurator: curate an AI agent's skill library as a git repository.

The library API an agent calls on every skill load is here; it imports nothing heavy.
"""

from __future__ import annotations

import os

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False


if TYPE_CHECKING:
    from gitcurator.telemetry.recording import UnknownSkill as UnknownSkill

__version__ = "0.1.0"


def record_use(*names: str, repo: str | os.PathLike[str] = ".", at: str | None = None) -> None:
    """Record that an agent loaded these skills (raises UnknownSkill; nothing recorded then)."""
    from gitcurator.telemetry.recording import record

    record("use", names, at=at, repo=os.path.expanduser(repo), source="api")


def record_view(*names: str, repo: str | os.PathLike[str] = ".", at: str | None = None) -> None:
    """Record that an agent opened these skills without using them."""
    from gitcurator.telemetry.recording import record

    record("view", names, at=at, repo=os.path.expanduser(repo), source="api")


def __getattr__(name: str) -> object:
    if name == "UnknownSkill":
        from gitcurator.telemetry.recording import UnknownSkill

        return UnknownSkill
    raise AttributeError(name)

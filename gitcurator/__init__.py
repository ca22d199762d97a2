"""gitcurator: curate an AI agent's skill library as a git repository."""

from __future__ import annotations

__version__ = "0.1.0"

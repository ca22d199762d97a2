"""What Hermes' plugin calls after every tool: skill events into the journal, never an error."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gitcurator.agents import hermes, status
from gitcurator.agents.delivery import Target, deliver
from gitcurator.agents.events import now


def post_tool_call(repo: str, kwargs: Mapping[str, Any]) -> None:
    """Record what one Hermes tool call did to skills; failures go to hook.log."""
    if kwargs.get("tool_name") not in ("skill_view", "skill_manage"):
        return  # every other tool: return before touching the disk
    state = None
    try:
        target = Target.find(Path(repo))
        state = target.state
        deliver(target, hermes.AGENT, hermes.plugin_events(target.root, kwargs))
    except Exception as exc:
        status.log_failure(state, hermes.AGENT, now(), f"{type(exc).__name__}: {exc}")

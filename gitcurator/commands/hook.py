"""`gitcurator hook AGENT`: what an agent's installed hook runs on every skill load.

Reads the hook's JSON on stdin and records what it carries. It must never disturb the agent:
it always exits 0, writes nothing on stdout (Claude Code adds UserPromptSubmit's stdout to the
model's context), logs failures to .git/gitcurator/hook.log, and, like `record`, imports no
click, dulwich or PyYAML (entry.py sends `hook` here directly).
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from gitcurator.agents.events import HOOKED_AGENTS
from gitcurator.errors import JSON_READ_ERRORS

MAX_PAYLOAD = 32 << 20  # bytes; a Write of a huge file is still parsed, a runaway stream not


def parse_args(argv: list[str]) -> tuple[str, Path] | None:
    """(agent, repo) of `[-C PATH] hook AGENT [-C PATH]`, or None for anything else."""
    repo: Path | None = None
    args = list(argv)
    if args[:1] == ["-C"] and len(args) > 1:
        repo, args = Path(args[1]), args[2:]
    if args[:1] != ["hook"] or len(args) not in (2, 4):
        return None
    if len(args) == 4:
        if args[2] != "-C":
            return None
        repo = Path(args[3])
    if args[1].startswith("-"):
        return None
    return args[1], repo or Path()  # not Path.cwd(): a deleted cwd must not raise here


def run(agent: str, repo: Path, stdin: Any = None) -> int:
    """Record the events of one hook payload; always 0."""
    from gitcurator.agents import status
    from gitcurator.agents.events import now

    state = None
    try:
        from gitcurator.agents.delivery import Target

        try:
            target = Target.find(repo)
        except FileNotFoundError:
            status.log_failure(None, agent, now(), f"{repo} is not inside a skills repository")
            return 0
        state = target.state
        if agent not in HOOKED_AGENTS:
            status.log_failure(
                state,
                agent,
                now(),
                f"no hook for {agent!r} (known agents: {', '.join(HOOKED_AGENTS)})",
            )
            return 0
        data = (stdin or sys.stdin.buffer).read(MAX_PAYLOAD + 1)
        if len(data) > MAX_PAYLOAD:
            status.log_failure(state, agent, now(), f"payload over {MAX_PAYLOAD} bytes; skipped")
            return 0
        _record(agent, target, data)
    except Exception as exc:  # the agent must never see a failure of ours
        with contextlib.suppress(Exception):
            status.log_failure(state, agent, now(), f"{type(exc).__name__}: {exc}")
    return 0


def _record(agent: str, target: Any, data: bytes) -> None:
    from gitcurator.agents import status
    from gitcurator.agents.delivery import deliver
    from gitcurator.agents.events import now
    from gitcurator.agents.paths import Library

    if not data.strip():
        status.log_failure(target.state, agent, now(), "empty payload on stdin; nothing recorded")
        return
    try:
        payload = json.loads(data)
    except JSON_READ_ERRORS as exc:
        status.log_failure(target.state, agent, now(), f"payload is not JSON ({exc})")
        return
    if not isinstance(payload, dict):
        status.log_failure(target.state, agent, now(), "payload is not a JSON object")
        return
    library = Library(target.root)
    if agent == "claude-code":
        from gitcurator.agents.claude_code import hook_events
    else:
        from gitcurator.agents.codex import hook_events
    deliver(target, agent, hook_events(payload, library))

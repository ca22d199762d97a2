"""A model client faked at the seam: scripted replies, no HTTP (curation.cluster_review.Model).

End-to-end tests go through tests/support/fake_openai.py and the real client; this is for the
planning code, which needs only what the protocol asks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from gitcurator.config import LlmSettings
from gitcurator.umbrella.model_errors import LlmError
from gitcurator.umbrella.model_reply import JSON_SCHEMA, Reply

Answer = str | LlmError


class ScriptedModel:
    """Answers each ask with the next scripted reply, or with `answer(user message)`."""

    def __init__(self, *script: Answer, answer: Callable[[str], Answer] | None = None) -> None:
        self.settings = LlmSettings(base_url="http://model.invalid/v1", model="scripted")
        self.model = "scripted"
        self.mode = JSON_SCHEMA
        self.asks = self.http_requests = self.prompt_tokens = self.completion_tokens = 0
        self.script = list(script)
        self.answer = answer
        self.messages: list[str] = []
        self.caps: list[int | None] = []  # max_tokens of each ask
        self.withins: list[float | None] = []  # seconds each ask was given

    def ask(
        self,
        system: str,
        user: str,
        schema: Mapping[str, Any],
        schema_name: str,
        *,
        max_tokens: int | None = None,
        within: float | None = None,
    ) -> Reply:
        self.asks += 1
        self.caps.append(max_tokens)
        self.withins.append(within)
        self.http_requests += 1
        self.messages.append(user)
        reply = self.script.pop(0) if self.script else self.answer(user) if self.answer else ""
        if isinstance(reply, LlmError):
            raise reply
        self.prompt_tokens += len(user) // 4
        self.completion_tokens += len(reply) // 4
        return Reply(reply, len(user) // 4, len(reply) // 4, self.mode, 0.0)


def plan_reply(*umbrellas: Mapping[str, Any], keep: tuple[str, ...] = ()) -> str:
    """A consolidation plan as the model sends it."""
    kept = [{"skill": s, "reason": "about something else"} for s in keep]
    return json.dumps({"umbrellas": list(umbrellas), "keep": kept})


def umbrella(name: str, absorb: list[str], body: str, **overrides: Any) -> dict[str, Any]:
    """One proposed umbrella absorbing `absorb`, with `body` as its text."""
    proposal = {
        "name": name,
        "description": f"Use for {name} tasks.",
        "body": body,
        "absorb": absorb,
        "demote": [],
        "reason": "one class of task",
    }
    proposal.update(overrides)
    return proposal

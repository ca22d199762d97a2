"""What the umbrella step of a pass decided, as values (no I/O): per cluster the model's answer
and each proposal's verdict, the umbrellas accepted with every file they write, what was
refused and why, and what asking the model cost. The report's `llm` section is read off it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gitcurator.references.rewrite import Rewrite
from gitcurator.store import ObjectID
from gitcurator.umbrella.proposal_checks import Umbrella

NOT_REVIEWED, FAILED, APPLIED, KEPT, REFUSED = (
    "not_reviewed",
    "failed",
    "applied",
    "kept",
    "refused",
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One proposed umbrella: accepted, or refused with the rule it breaks."""

    name: str
    refused: str | None = None

    def to_json(self) -> dict[str, Any]:
        """As run.json lists it under its cluster."""
        if self.refused is None:
            return {"name": self.name, "applied": True}
        return {"name": self.name, "applied": False, "reason": self.refused}


@dataclass(frozen=True, slots=True)
class ClusterReview:
    """One cluster: asked or not, the model's plan (schema-valid) or why there is none."""

    key: str
    members: tuple[str, ...]
    status: str  # NOT_REVIEWED, FAILED, APPLIED, KEPT or REFUSED
    error: str | None = None
    answer: Mapping[str, Any] | None = None
    verdicts: tuple[Verdict, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As run.json lists it under `llm.clusters` (keys in the order reports have)."""
        doc: dict[str, Any] = {"key": self.key, "members": list(self.members)}
        if self.answer is not None:
            doc["plan"] = self.answer
            doc["umbrellas"] = [v.to_json() for v in self.verdicts]
        doc["status"] = self.status
        if self.error is not None:
            doc["error"] = self.error
        return doc


@dataclass(frozen=True, slots=True)
class Fold:
    """An accepted umbrella of cluster `cluster`: one commit of the pass."""

    umbrella: Umbrella[ObjectID]
    cluster: str
    # References to its folded names elsewhere, rewritten in the same commit (path -> content).
    rewritten: Mapping[str, bytes] = field(default_factory=dict)
    references: tuple[Rewrite, ...] = ()
    left: tuple[str, ...] = ()  # `path:line` of references it could not rewrite (no text file)

    def to_json(self, commit: str | None = None) -> dict[str, Any]:
        """As run.json lists it under `consolidations` (with its commit once written)."""
        u = self.umbrella
        doc: dict[str, Any] = {
            "umbrella": u.name,
            "path": u.folder,
            "existing": u.existing,
            "absorbed": list(u.absorbed),
            "demoted": list(u.demoted),
            "reason": u.reason,
            "retention": u.retention,
            "cluster": self.cluster,
        }
        if self.references:  # only then: a fold with nothing to rewrite reads as before
            doc["references_rewritten"] = [r.to_json() for r in self.references]
        if self.left:
            doc["references_left"] = list(self.left)
        if commit is not None:
            doc["commit"] = commit
        return doc


@dataclass(frozen=True, slots=True)
class Refusal:
    """A cluster without a usable plan, or an umbrella that broke a rule."""

    what: str
    reason: str

    def to_json(self) -> dict[str, str]:
        """As run.json lists it under `refused`."""
        return {"what": self.what, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class ModelUse:
    """What asking the model cost, counted by the client."""

    model: str
    endpoint: str
    mode: str
    requests: int
    http_requests: int
    prompt_tokens: int
    completion_tokens: int
    wall_seconds: float


@dataclass(frozen=True, slots=True)
class UmbrellaPlan:
    """The umbrella step, decided: every fold to commit, in order, and the report's parts."""

    folds: tuple[Fold, ...]
    refused: tuple[Refusal, ...]
    reviews: tuple[ClusterReview, ...]
    valid_plans: int  # clusters whose answer was usable (an umbrella applied, or keep all)
    stopped: str | None  # why the remaining clusters were not asked, if they were not
    use: ModelUse
    problems: tuple[str, ...] = ()  # skills left out because their SKILL.md is unreadable

    @property
    def failed(self) -> bool:
        """Clusters were asked about and none got a usable plan (max_requests: 0 asks
        nothing, which is no failure)."""
        asked = any(r.status != NOT_REVIEWED for r in self.reviews)
        return asked and not self.valid_plans

    def llm_doc(self) -> dict[str, Any]:
        """run.json's `llm` section."""
        use = self.use
        return {
            "model": use.model,
            "endpoint": use.endpoint,
            "mode": use.mode,
            "requests": use.requests,
            "http_requests": use.http_requests,
            "prompt_tokens": use.prompt_tokens,
            "completion_tokens": use.completion_tokens,
            "wall_seconds": use.wall_seconds,
            "stopped": self.stopped,
            "clusters": [r.to_json() for r in self.reviews],
        }

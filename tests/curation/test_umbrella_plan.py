"""The umbrella step's decisions as values, and their JSON in the order reports have it."""

from __future__ import annotations

from gitcurator.curation.umbrella_plan import (
    APPLIED,
    FAILED,
    KEPT,
    NOT_REVIEWED,
    ClusterReview,
    ModelUse,
    Refusal,
    UmbrellaPlan,
    Verdict,
)

USE = ModelUse("m", "http://x/v1", "json_schema", 2, 3, 10, 5, 0.25)
MEMBERS = ("pdf-a", "pdf-b")


def test_a_cluster_not_asked_about_says_only_so() -> None:
    doc = ClusterReview("pdf", MEMBERS, NOT_REVIEWED).to_json()
    assert list(doc) == ["key", "members", "status"]


def test_a_failed_cluster_gives_its_error_after_its_status() -> None:
    doc = ClusterReview("pdf", MEMBERS, FAILED, "timed out").to_json()
    assert doc == {"key": "pdf", "members": list(MEMBERS), "status": FAILED, "error": "timed out"}
    assert list(doc) == ["key", "members", "status", "error"]


def test_an_answered_cluster_lists_the_plan_and_each_verdict_before_its_status() -> None:
    answer = {"umbrellas": [{"name": "pdf-tools"}, {"name": "pdf"}], "keep": []}
    verdicts = (Verdict("pdf-tools"), Verdict("pdf", "umbrella name is too short"))
    doc = ClusterReview("pdf", MEMBERS, APPLIED, None, answer, verdicts).to_json()
    assert list(doc) == ["key", "members", "plan", "umbrellas", "status"]
    assert doc["umbrellas"] == [
        {"name": "pdf-tools", "applied": True},
        {"name": "pdf", "applied": False, "reason": "umbrella name is too short"},
    ]


def _plan(*reviews: ClusterReview, valid: int = 0) -> UmbrellaPlan:
    return UmbrellaPlan((), (Refusal("cluster pdf", "timed out"),), reviews, valid, None, USE)


def test_failed_means_asked_and_nothing_usable() -> None:
    assert _plan(ClusterReview("pdf", MEMBERS, FAILED, "x")).failed
    assert not _plan(ClusterReview("pdf", MEMBERS, KEPT, None, {}), valid=1).failed
    assert not _plan(ClusterReview("pdf", MEMBERS, NOT_REVIEWED)).failed  # max_requests: 0
    assert not _plan().failed


def test_the_llm_section_is_the_model_use_then_the_clusters() -> None:
    doc = _plan(ClusterReview("pdf", MEMBERS, NOT_REVIEWED)).llm_doc()
    assert doc == {
        "model": "m",
        "endpoint": "http://x/v1",
        "mode": "json_schema",
        "requests": 2,
        "http_requests": 3,
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "wall_seconds": 0.25,
        "stopped": None,
        "clusters": [{"key": "pdf", "members": list(MEMBERS), "status": NOT_REVIEWED}],
    }
    assert Refusal("a", "b").to_json() == {"what": "a", "reason": "b"}

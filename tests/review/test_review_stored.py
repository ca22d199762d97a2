"""The review read from a run.json as stored (pure): every figure taken, none recomputed, and a
document a person edited read without a crash."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.review.stored import last_activity, pass_review, stored_catalogue


def _doc(**extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "run_id": "20260301-000000",
        "now": "2026-03-01T00:00:00Z",
        "counts": {"before": {"active": 4}, "after": {"active": 2, "archived": 3}},
        "transitions": [
            {
                "skill": "old",
                "path": "a/old",
                "from": "active",
                "to": "archived",
                "reason": "idle 99 days (last activity 2025-11-20), over archive_after_days=90",
                "archived_path": ".archive/a/old",
            },
            {"skill": "idle", "path": "idle", "from": "active", "to": "stale", "reason": "idle"},
            {"skill": "back", "path": "back", "from": "stale", "to": "active", "reason": "used"},
        ],
        "skipped": [{"skill": "mine", "reason": "origin user"}],
        "consolidations": [
            {
                "umbrella": "pdf",
                "path": "docs/pdf",
                "existing": True,
                "absorbed": ["pdf-a"],
                "demoted": ["pdf-b"],
                "reason": "one task",
                "retention": {"pdf-a": 0.91, "pdf-b": 1.0},
                "cluster": "pdf",
                "commit": "c" * 40,
            }
        ],
        "refused": [{"what": "umbrella x (k8s)", "reason": "loses content"}],
        "llm": {
            "clusters": [
                {"key": "other", "plan": {"umbrellas": [{"name": "pdf", "demote": []}]}},
                {
                    "key": "pdf",
                    "plan": {
                        "umbrellas": [
                            {"name": "pdf", "demote": [{"skill": "pdf-b", "to": "references/b.md"}]}
                        ]
                    },
                },
            ]
        },
    }
    doc.update(extra)
    return doc


def _review(doc: dict[str, Any], catalogue: Any = None) -> Any:
    return pass_review(
        doc,
        branch="curator/x",
        status="pending review",
        base="b" * 40,
        tip="t" * 40,
        catalogue=catalogue,
    )


def test_every_part_is_read_from_the_document() -> None:
    review = _review(_doc())
    assert [m.skill for m in review.archived] == ["old"]
    assert review.archived[0].archived_path == ".archive/a/old"
    assert review.archived[0].last_activity == "2025-11-20"
    assert [m.skill for m in review.stale] == ["idle"]
    assert [m.skill for m in review.reactivated] == ["back"]
    assert (review.live_before, review.live_after) == (4, 2)
    assert review.left_alone == 1
    assert review.refused == (("umbrella x (k8s)", "loses content"),)
    [umbrella] = review.umbrellas
    assert umbrella.existing and umbrella.commit == "c" * 40
    assert umbrella.absorbed == ["pdf-a"]
    # The demoted skill's file is where its own cluster's plan put it, not another's.
    demoted = [f for f in umbrella.folded if f.demoted_to]
    assert [(f.skill, f.retention, f.demoted_to) for f in demoted] == [
        ("pdf-b", 1.0, "docs/pdf/references/b.md")
    ]


def test_catalogue_figures_come_from_run_json_when_it_has_them() -> None:
    stored = {
        "before": {"skills": 5, "tokens": 500, "tokenizer": "o200k_base"},
        "after": {"skills": 4, "tokens": 410, "tokenizer": "o200k_base"},
    }
    assert stored_catalogue(_doc(catalogue=stored)) == (
        CatalogueCost(5, 500, "o200k_base"),
        CatalogueCost(4, 410, "o200k_base"),
    )
    assert stored_catalogue(_doc()) is None
    broken = {"before": {"skills": "5"}, "after": stored["after"]}
    assert stored_catalogue(_doc(catalogue=broken)) is None
    review = _review(_doc(), stored_catalogue(_doc(catalogue=stored)))
    assert review.to_json()["catalogue"]["after"]["tokens"] == 410


@pytest.mark.parametrize(
    ("reason", "when"),
    [
        ("idle 101 days (last activity 2026-07-23), over archive_after_days=90", "2026-07-23"),
        (
            "idle 168 days (never used, created 2026-05-17), over archive_after_days=90",
            "never used (created 2026-05-17)",
        ),
        ("archived by hand", "unknown"),
    ],
)
def test_last_activity_is_what_the_reason_says(reason: str, when: str) -> None:
    assert last_activity(reason) == when


def test_shapes_a_person_broke_are_read_without_a_crash() -> None:
    doc = _doc(
        consolidations=[
            {"umbrella": "u", "absorbed": "not a list", "retention": [1], "demoted": [3]},
            "not an object",
        ],
        refused=["x"],
        llm={"clusters": "nope"},
        skipped=None,
    )
    doc["transitions"].append("junk")
    review = _review(doc)
    [umbrella] = review.umbrellas
    assert umbrella.absorbed == [] and umbrella.folded[0].skill == "3"
    assert umbrella.folded[0].retention is None and review.refused == ()
    assert review.to_json()["left_alone"] == 0


def test_numbers_json_allows_but_no_pass_writes_are_no_figures() -> None:
    doc = _doc()
    doc["consolidations"] = [
        {
            "umbrella": "u",
            "absorbed": ["a", "b", "c"],
            "reason": "r",
            "retention": {"a": float("nan"), "b": float("inf"), "c": 10**400},
        }
    ]
    review = _review(doc)
    assert [f.retention for f in review.umbrellas[0].folded] == [None, None, None]
    json.dumps(review.to_json(), allow_nan=False)  # --json stays JSON
    huge = {"skills": 1, "tokens": 10**400, "tokenizer": "x"}
    assert stored_catalogue({"catalogue": {"before": huge, "after": huge}}) is None
    counts = _review(doc | {"counts": {"before": {"active": 10**400}, "after": {}}})
    assert counts.counts_before == {}

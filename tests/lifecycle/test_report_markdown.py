"""REPORT.md: run.json for the person reviewing the branch."""

from __future__ import annotations

from typing import Any

from gitcurator.lifecycle.report_markdown import report_markdown

DOC: dict[str, Any] = {
    "run_id": "20260601-000000",
    "branch": "curator/20260601-000000",
    "base_commit": "0123456789abcdef" * 2 + "01234567",
    "now": "2026-06-01T00:00:00Z",
    "thresholds": {"stale_after_days": 30, "archive_after_days": 90, "min_age_days": 7},
    "counts": {"before": {"active": 3}, "after": {"active": 1, "archived": 1, "stale": 1}},
    "transitions": [
        {
            "skill": "old",
            "path": "docs/old",
            "from": "active",
            "to": "archived",
            "reason": "idle",
            "archived_path": ".archive/docs/old",
        },
        {"skill": "helm", "path": "helm", "from": "active", "to": "stale", "reason": "idle 45"},
    ],
    "skipped": [{"skill": "b", "reason": "pinned"}, {"skill": "a", "reason": "pinned"}],
    "consolidations": [],
    "refused": [],
    "llm": None,
}


def test_the_lifecycle_sections() -> None:
    text = report_markdown(DOC)
    assert text.startswith("# Curator pass 20260601-000000\n\n- now: 2026-06-01T00:00:00Z\n")
    assert "- base: `0123456789ab`, branch `curator/20260601-000000`" in text
    assert "| archived | 0 | 1 |" in text
    assert "- **old** (`docs/old` → `.archive/docs/old`): idle" in text
    assert "## Marked stale (1)" in text and "## Active again" not in text
    assert "- pinned: a, b" in text
    assert text.endswith("Undo after merging: `gitcurator rollback 20260601-000000`\n")


def test_the_umbrella_sections() -> None:
    doc = {
        **DOC,
        "consolidations": [
            {
                "umbrella": "pdf-tools",
                "absorbed": ["pdf-a"],
                "demoted": ["pdf-b"],
                "reason": "one task",
                "retention": {"pdf-a": 0.9},
            }
        ],
        "refused": [{"what": "cluster k8s", "reason": "timed out"}],
        "llm": {
            "model": "m",
            "endpoint": "http://x/v1",
            "requests": 2,
            "prompt_tokens": 10,
            "completion_tokens": 5,
            "wall_seconds": 1.25,
            "stopped": None,
            "clusters": [
                {
                    "key": "pdf",
                    "members": ["pdf-a", "pdf-b"],
                    "status": "applied",
                    "umbrellas": [{"name": "pdf-tools", "applied": True}],
                },
                {"key": "k8s", "members": ["k8s-a"], "status": "failed", "error": "timed out"},
            ],
        },
    }
    text = report_markdown(doc)
    assert "- **pdf-tools** ← pdf-a, pdf-b (demoted): one task\n  - content kept: pdf-a 90%" in text
    assert "## Refused (1)\n\n- cluster k8s: timed out" in text
    assert "- m at http://x/v1: 2 requests, 10 prompt and 5 completion tokens, 1.2 s" in text
    assert "- cluster `pdf` (pdf-a, pdf-b): applied: pdf-tools applied" in text
    assert "- cluster `k8s` (k8s-a): failed: timed out" in text

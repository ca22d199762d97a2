"""run.json and the commit messages of a pass (pure)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.report import (
    archive_message,
    report_message,
    run_doc,
    run_paths,
    umbrella_message,
)
from gitcurator.lifecycle.rules import LifecyclePlan, Skip, Transition

NOW = datetime(2026, 6, 1, tzinfo=UTC)
OLD = Transition("old", "docs/old", "active", "archived", "idle 120 days")
HELM = Transition("helm", "helm", "active", "stale", "idle 45 days")
PLAN = LifecyclePlan(NOW, (OLD, HELM), (Skip("mine", "origin user"),))
BEFORE = {"old": "active", "helm": "active", "mine": "active", "pdf-a": "stale", "pdf-b": "active"}


def _doc(**umbrella_parts: Any) -> dict[str, Any]:
    return run_doc(
        run_id="20260601-000000",
        branch="curator/20260601-000000",
        base_commit="a" * 40,
        plan=PLAN,
        policy=CuratorPolicy(),
        states_before=BEFORE,
        archived_paths={"old": ".archive/docs/old"},
        **umbrella_parts,
    )


def test_the_lifecycle_alone() -> None:
    doc = _doc()
    assert doc["counts"] == {
        "before": {"active": 4, "stale": 1},
        "after": {"active": 2, "archived": 1, "stale": 2},
    }
    assert doc["transitions"][0]["archived_path"] == ".archive/docs/old"
    assert "archived_path" not in doc["transitions"][1]
    assert doc["skipped"] == [{"skill": "mine", "reason": "origin user"}]
    assert (doc["consolidations"], doc["refused"], doc["llm"]) == ([], [], None)


def test_folded_skills_count_as_archived_and_a_new_umbrella_as_active() -> None:
    fold = {"absorbed": ["pdf-a"], "demoted": ["pdf-b"], "existing": False}
    doc = _doc(consolidations=[fold], refused=[{"what": "x", "reason": "y"}], llm={"model": "m"})
    assert doc["counts"]["after"] == {"active": 2, "archived": 3, "stale": 1}
    into_existing = {"absorbed": ["pdf-a", "pdf-b"], "demoted": [], "existing": True}
    assert _doc(consolidations=[into_existing])["counts"]["after"] == {
        "active": 1,
        "archived": 3,
        "stale": 1,
    }
    assert doc["refused"] == [{"what": "x", "reason": "y"}] and doc["llm"] == {"model": "m"}


def test_commit_messages_have_a_readable_subject_and_trailers() -> None:
    archive = archive_message("R", [OLD])
    assert archive.splitlines()[0] == "curator: archive 1 unused skill"
    assert "Curator-Run: R\nCurator-Archived: old\n" in archive
    report = report_message("R", _doc())
    assert report.startswith("curator: report for run R\n\n")
    assert "Transitions: 1 archived, 1 stale; 1 skills left alone." in report
    assert report.endswith(f"Curator-Report: {run_paths('R')[0]}\n")
    umbrella = SimpleNamespace(
        name="pdf-tools",
        folder="pdf-tools",
        existing=False,
        reason="one task",
        folded=("pdf-a", "pdf-b"),
        demoted=("pdf-b",),
        retention={"pdf-a": 0.9},
    )
    message = umbrella_message("R", umbrella, "pdf")
    assert message.splitlines()[0] == "curator: fold 2 skills into pdf-tools"
    assert "- pdf-b (demoted to a reference; 100% of its content kept)" in message
    assert "Curator-Absorbed-Into: pdf-a -> pdf-tools" in message

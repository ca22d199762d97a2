"""A pass keeps the skills that live skills or reference files refer to, and reports them."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.references import committed_library, configure, ok, run_json
from support.repos import git

SKILLS = {
    "old-helper": "Helps with old things.",
    "old-unused": "Nobody needs this.",
    "old-by-agents": "Named by the team's AGENTS.md.",
    "old-by-archived": "Only an idle skill names it.",
    "old-idle-referrer": "See `old-by-archived`.",
    "daily-driver": "Every day. For the rare case, use `old-helper`.",
}
AGENTS = ["old-helper", "old-unused", "old-by-agents", "old-by-archived", "old-idle-referrer"]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return committed_library(
        tmp_path / "lib",
        monkeypatch,
        SKILLS,
        {"team/AGENTS.md": "Load skill:old-by-agents.\n"},
        agents=[*AGENTS, "daily-driver"],
        used=["daily-driver"],
    )


def test_a_referenced_skill_is_kept_with_its_referrers(repo: Path) -> None:
    doc = run_json(repo)
    assert sorted(doc["archived"]) == ["old-by-archived", "old-idle-referrer", "old-unused"]
    kept = {k["skill"]: k["referrers"] for k in doc["kept"]}
    assert kept == {
        "old-by-agents": ["team/AGENTS.md:1"],
        "old-helper": ["daily-driver/SKILL.md:8"],
    }
    # Stale marking is unchanged: the kept skills go stale.
    assert {"old-by-agents", "old-helper"} <= set(doc["stale"])
    branch = doc["branch"]
    report = git("show", f"{branch}:{doc['report']}", cwd=repo).stdout
    assert "## Kept: referred to (2)" in report
    assert "**old-helper** (`old-helper`): idle" in report
    assert "referred to by daily-driver/SKILL.md:8" in report
    run_doc = git("show", f"{branch}:.curator/runs/{doc['run_id']}/run.json", cwd=repo).stdout
    assert '"kept": [' in run_doc
    text = ok(repo, "run", "--dry-run", "--now", "2026-06-02T00:00:00Z")
    assert "kept: old-helper (idle" in text


def test_archive_referenced_archives_them(repo: Path) -> None:
    configure(repo, curator={"archive_referenced": True})
    doc = run_json(repo)
    assert sorted(doc["archived"]) == sorted(AGENTS)
    assert "kept" not in doc


def test_without_reference_files_only_skills_keep(repo: Path) -> None:
    configure(repo, top={"reference_files": []})
    doc = run_json(repo)
    assert [k["skill"] for k in doc["kept"]] == ["old-helper"]
    assert "old-by-agents" in doc["archived"]

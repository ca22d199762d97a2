"""`merge` re-runs the pass's guards on an umbrella commit's content (issue 11): a crafted
commit shaped like an umbrella that rewrites a live skill the pass may not change is refused,
naming the commit and the path; the same fold into a skill the pass may change merges."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.passes import RUN, snapshot
from support.repos import git, run_cli
from support.umbrella_branches import make_umbrella_pass

PDF_STEPS = (
    "Open the file with pdfplumber, walk every page, call extract_tables on each page and "
    "write the rows to one csv file per page; scanned pages need ocrmypdf first."
)
PDF = f"""\
---
name: pdf-extract
description: Extract tables from PDF files.
---

{PDF_STEPS}
"""
BOTH = f"""\
---
name: docker-build
description: Use when a task needs docker-build or pdf-extract.
---

# docker-build

Steps an agent follows for docker-build.

## pdf-extract

{PDF_STEPS}
"""


@pytest.fixture
def eligible(agent_repo: Path) -> Path:
    """agent_repo with min_age_days 0, so its agent skill pdf-extract may be folded today,
    and enough words in pdf-extract for retention to measure."""
    (agent_repo / "pdf-extract/SKILL.md").write_text(PDF)
    config = agent_repo / ".gitcurator.yaml"
    config.write_text(config.read_text().replace("min_age_days: 7", "min_age_days: 0"))
    git("commit", "-qam", "fold young skills too", cwd=agent_repo)
    return agent_repo


def test_an_umbrella_commit_rewriting_a_persons_skill_is_refused(eligible: Path) -> None:
    fold, _tip = make_umbrella_pass(eligible, "devops/docker-build", BOTH, ("pdf-extract",))
    before = snapshot(eligible)
    result = run_cli("merge", "-C", str(eligible))
    assert result.code == 1, result
    assert f"refusing to merge curator/{RUN}: commit {fold[:12]} rewrites " in result.err
    assert (
        "devops/docker-build/SKILL.md, but docker-build may not be changed: origin user: only "
        "agent-made skills are curated" in result.err
    )
    assert snapshot(eligible) == before
    assert (
        "Steps an agent follows for pdf-extract"
        not in (eligible / "devops/docker-build/SKILL.md").read_text()
    )


def test_an_umbrella_commit_folding_a_pinned_skill_is_refused(eligible: Path) -> None:
    assert run_cli("track", "docker-build", "--origin", "agent", "-C", str(eligible)).code == 0
    assert run_cli("pin", "pdf-extract", "-C", str(eligible)).code == 0
    fold, _tip = make_umbrella_pass(eligible, "devops/docker-build", BOTH, ("pdf-extract",))
    result = run_cli("merge", "-C", str(eligible))
    assert result.code == 1, result
    assert f"commit {fold[:12]} folds pdf-extract, which a pass may not fold: pinned" in result.err


def test_the_same_fold_into_a_skill_the_pass_may_change_merges(eligible: Path) -> None:
    assert run_cli("track", "docker-build", "--origin", "agent", "-C", str(eligible)).code == 0
    make_umbrella_pass(eligible, "devops/docker-build", BOTH, ("pdf-extract",))
    result = run_cli("merge", "-C", str(eligible))
    assert result.code == 0, result
    assert (eligible / ".archive/pdf-extract/SKILL.md").exists()
    assert "## pdf-extract" in (eligible / "devops/docker-build/SKILL.md").read_text()


def test_an_umbrella_that_drops_the_folded_skills_content_is_refused(eligible: Path) -> None:
    assert run_cli("track", "docker-build", "--origin", "agent", "-C", str(eligible)).code == 0
    thin = BOTH.split("## pdf-extract")[0]
    fold, _tip = make_umbrella_pass(eligible, "devops/docker-build", thin, ("pdf-extract",))
    result = run_cli("merge", "-C", str(eligible))
    assert result.code == 1, result
    assert f"commit {fold[:12]} loses content: devops/docker-build/SKILL.md keeps " in result.err
    assert "of pdf-extract/SKILL.md (min_retention 0.5)" in result.err

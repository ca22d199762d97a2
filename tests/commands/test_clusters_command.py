"""`gitcurator clusters` end to end: only skills the umbrella pass may touch are clustered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.repos import git, run_cli, write_skill

from gitcurator.commands.clusters import load_candidates
from gitcurator.library import open_repo

EPOCH = "2026-01-01T00:00:00Z"
NOW = "2026-03-01T00:00:00Z"
AGENT = ["pdf-extract-tables", "pdf-extract-images", "pdf-extract-forms", "sourdough-starter"]
PDF_SKILL = """\
---
name: {name}
description: Extract {what} from PDF files.
---

# {name}

Open the PDF, find the {what} on each page and extract them to files.
"""
CAMELOT = """\
---
name: camelot-table-reader
description: Extract tables from PDF files with camelot.
---

# camelot-table-reader

Open the PDF with camelot, find the tables on each page and save each one as CSV.
"""


def _cli(repo: Path, *args: str) -> None:
    result = run_cli(*args, "-C", str(repo))
    assert result.code == 0, result


def _dated(monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, when)


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Siblings of every provenance, committed two months before NOW."""
    root = tmp_path / "skills"
    for name in [*AGENT, "pdf-extract-user", "pdf-extract-hub", "pdf-extract-bundled"]:
        if name.startswith("pdf-extract-"):
            what = name.removeprefix("pdf-extract-")
            body = PDF_SKILL.format(name=name, what=what)
            write_skill(root, f"documents/{name}", body=body)
        else:
            write_skill(root, name)
    for name in ("pdf-extract-pinned", "pdf-extract-protected", "pdf-extract-old"):
        write_skill(root, name)
    write_skill(root, "camelot-table-reader", body=CAMELOT)
    (root / "documents/pdf-extract-tables/references").mkdir()
    (root / "documents/pdf-extract-tables/references/camelot.md").write_text("# camelot\n")
    _dated(monkeypatch, EPOCH)
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "skills", cwd=root)
    assert run_cli("init", str(root), "-q").code == 0
    agent = [*AGENT, "camelot-table-reader", "pdf-extract-pinned", "pdf-extract-protected"]
    _cli(root, "track", *agent, "pdf-extract-old", "--origin", "agent")
    _cli(root, "track", "pdf-extract-hub", "--origin", "hub")
    _cli(root, "track", "pdf-extract-bundled", "--origin", "bundled")
    _cli(root, "pin", "pdf-extract-pinned")
    _cli(root, "archive", "pdf-extract-old")
    config = root / ".gitcurator.yaml"
    config.write_text(config.read_text().replace("protect: []", "protect: [pdf-extract-protected]"))
    # A sibling the agent wrote four days before NOW: too young to be merged.
    _dated(monkeypatch, "2026-02-26T00:00:00Z")
    write_skill(root, "documents/pdf-extract-young")
    _cli(root, "commit", "-m", "learnt pdf-extract-young", "--origin", "agent")
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    return root


def _clusters(repo: Path, *args: str) -> dict[str, Any]:
    result = run_cli("clusters", "--json", "-C", str(repo), *args)
    assert result.code == 0, result
    doc: dict[str, Any] = json.loads(result.out)
    return doc


def test_only_eligible_skills_are_clustered(library: Path) -> None:
    doc = _clusters(library, "--now", NOW)
    assert [c["members"] for c in doc["clusters"]] == [
        ["camelot-table-reader", "pdf-extract-forms", "pdf-extract-images", "pdf-extract-tables"]
    ]
    [cluster] = doc["clusters"]
    assert cluster["key"] == "pdf-extract"
    assert cluster["reasons"]["pdf-extract-forms"].startswith("name prefix pdf-extract, wording")
    assert cluster["reasons"]["camelot-table-reader"].startswith("wording like pdf-extract-")
    assert (doc["candidates"], doc["singletons"]) == (5, 1)  # sourdough-starter has no sibling
    assert doc["left_out"] == {"not_curated": 3, "pinned": 1, "protected": 1, "too_young": 1}


def test_people_see_clusters_with_reasons_and_what_was_left_out(library: Path) -> None:
    result = run_cli("clusters", "-C", str(library), "--now", NOW)
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0] == "1 cluster of likely siblings among 5 candidates; 1 singleton not sent"
    assert lines[1] == (
        "left out: 3 not curated (user, hub or bundled), 1 pinned, 1 protected, "
        "1 younger than min_age_days"
    )
    assert "pdf-extract (4 skills)" in lines
    assert any(
        ln.split()[:4] == ["pdf-extract-tables", "name", "prefix", "pdf-extract,"] for ln in lines
    )
    for never in ("user", "hub", "bundled", "pinned", "protected", "old", "young"):
        assert f"pdf-extract-{never}" not in result.out


def test_age_is_judged_at_now(library: Path) -> None:
    # Ten days after the young sibling was written, it joins its family.
    doc = _clusters(library, "--now", "2026-03-08T00:00:00Z")
    assert "pdf-extract-young" in doc["clusters"][0]["members"]
    # Three days after the library was committed, nothing is old enough.
    early = run_cli("clusters", "-C", str(library), "--now", "2026-01-04T00:00:00Z")
    assert early.code == 0, early
    assert early.out.startswith("no skill can be clustered: the umbrella pass takes agent-made")
    assert _clusters(library, "--now", "2026-01-04T00:00:00Z")["clusters"] == []


def test_bundled_skills_join_with_prune_builtins(library: Path) -> None:
    config = library / ".gitcurator.yaml"
    config.write_text(config.read_text().replace("prune_builtins: false", "prune_builtins: true"))
    doc = _clusters(library, "--now", NOW)
    assert "pdf-extract-bundled" in doc["clusters"][0]["members"]
    assert doc["left_out"]["not_curated"] == 2


def test_skills_are_read_as_committed_with_their_support_files(library: Path) -> None:
    skill_md = library / "documents/pdf-extract-tables/SKILL.md"
    skill_md.write_text(skill_md.read_text().replace("Extract", "Uncommitted: extract"))
    with open_repo(library) as repo:
        loaded = load_candidates(repo, NOW)
    tables = next(c for c in loaded.candidates if c.name == "pdf-extract-tables")
    assert tables.description == "Extract tables from PDF files."
    assert "find the tables on each page" in tables.body
    assert tables.support_files == ("references/camelot.md",)
    assert tables.path == "documents/pdf-extract-tables"
    assert all(c.support_files == () for c in loaded.candidates if c is not tables)


def test_an_unreadable_skill_is_named_and_left_out(library: Path) -> None:
    broken = library / "documents/pdf-extract-images/SKILL.md"
    broken.write_text("no frontmatter here\n")
    git("commit", "-qam", "break it", cwd=library)
    result = run_cli("clusters", "--json", "-C", str(library), "--now", NOW)
    assert result.code == 0, result
    assert "documents/pdf-extract-images/SKILL.md must start with YAML frontmatter" in result.err
    doc = json.loads(result.out)
    assert "pdf-extract-images" not in doc["clusters"][0]["members"]
    assert doc["left_out"]["unreadable"] == 1


def test_an_empty_library_has_no_clusters(tmp_path: Path) -> None:
    assert run_cli("init", str(tmp_path), "-q").code == 0
    doc = _clusters(tmp_path)
    assert doc == {"clusters": [], "candidates": 0, "singletons": 0, "left_out": {}}

"""commands.catalogue_entries: live skills' names and descriptions at HEAD, cached by blob."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import run_cli, write_skill

from gitcurator.commands import catalogue_entries
from gitcurator.commands.skill_rows import load_rows
from gitcurator.library import open_repo


def _entries(repo: Path) -> list[tuple[str, str]]:
    with open_repo(repo) as opened:
        return catalogue_entries.live_entries(opened, load_rows(opened, None).rows)


def test_live_skills_with_their_descriptions_and_only_changed_ones_parsed_again(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _entries(repo) == [
        ("docker-build", "Use when a task needs docker-build."),
        ("helm-deploy", "Use when a task needs helm-deploy."),
        ("pdf-extract", "Use when a task needs pdf-extract."),
    ]
    parsed: list[bytes] = []
    real = catalogue_entries.parse_skill_md
    monkeypatch.setattr(catalogue_entries, "parse_skill_md", lambda d: parsed.append(d) or real(d))
    write_skill(repo, "pdf-extract", description="Pull tables out of PDF files.")
    assert run_cli("commit", "-m", "sharper", "-C", str(repo)).code == 0
    assert ("pdf-extract", "Pull tables out of PDF files.") in _entries(repo)
    assert len(parsed) == 1  # the two unchanged SKILL.md came from the cache


def test_archived_skills_are_not_in_the_catalogue(repo: Path) -> None:
    assert run_cli("archive", "helm-deploy", "-C", str(repo)).code == 0
    assert [name for name, _ in _entries(repo)] == ["docker-build", "pdf-extract"]

"""`gitcurator commit`'s near-duplicate guard, against real repositories."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from support.repos import git, run_cli, write_skill
from support.similar_skills import SKILLS

from gitcurator.statefiles import WORDS_CACHE


def _put(root: Path, name: str, folder: str | None = None) -> Path:
    return write_skill(root, folder or name, body=SKILLS[name])


def _library(repo: Path) -> Path:
    """The repo fixture plus the PDF family, committed."""
    for name in ("pdf-extract-tables", "pdf-merge"):
        _put(repo, name)
    assert run_cli("commit", "-m", "pdf skills", "-C", str(repo)).code == 0
    return repo


def test_a_new_skill_like_an_existing_one_is_refused_and_nothing_committed(repo: Path) -> None:
    _library(repo)
    head = git("rev-parse", "HEAD", cwd=repo).stdout
    path = _put(repo, "pdf-table-extraction")
    result = run_cli("commit", "-m", "learned tables", "--origin", "agent", "-C", str(repo))
    assert result.code == 1, result
    assert (
        "new skill pdf-table-extraction is very similar to pdf-extract-tables "
        "(similarity 0.70: table, pdf, camelot); update the existing skill instead, "
        "or commit with --allow-similar (nothing was committed)"
    ) in result.err
    assert git("rev-parse", "HEAD", cwd=repo).stdout == head
    assert path.read_text() == SKILLS["pdf-table-extraction"]
    assert git("status", "--porcelain", cwd=repo).stdout == "?? pdf-table-extraction/\n"


def test_allow_similar_commits_and_warns(repo: Path) -> None:
    _library(repo)
    _put(repo, "pdf-table-extraction")
    result = run_cli("commit", "-m", "tables", "--allow-similar", "-C", str(repo))
    assert result.code == 0, result
    assert "1 new skill (user)" in result.out
    assert "warning: new skill pdf-table-extraction is very similar to pdf-extract-tables" in (
        result.err
    )
    assert "committed anyway (--allow-similar)" in result.err
    trailers = git("log", "-1", "--format=%(trailers:only)", cwd=repo).stdout
    assert "Skill-Added: pdf-table-extraction" in trailers


def test_a_sibling_on_another_subtopic_is_committed(repo: Path) -> None:
    _library(repo)
    _put(repo, "pdf-extract-images")
    result = run_cli("commit", "-m", "images", "-C", str(repo))
    assert result.code == 0 and result.err == "", result


def test_an_edit_of_an_existing_skill_is_not_compared(repo: Path) -> None:
    _library(repo)
    # pdf-merge rewritten as a copy of pdf-extract-tables: an edit, so no guard.
    write_skill(
        repo,
        "pdf-merge",
        body=SKILLS["pdf-table-extraction"].replace(
            "name: pdf-table-extraction", "name: pdf-merge"
        ),
    )
    result = run_cli("commit", "-m", "rewrite", "-C", str(repo))
    assert result.code == 0 and "1 edited" in result.out and result.err == "", result


def test_archived_skills_are_not_compared(repo: Path) -> None:
    _library(repo)
    assert run_cli("archive", "pdf-extract-tables", "-C", str(repo)).code == 0
    _put(repo, "pdf-table-extraction")
    result = run_cli("commit", "-m", "tables again", "-C", str(repo))
    assert result.code == 0 and "similar" not in result.err, result


def test_a_skill_moved_to_another_folder_is_not_its_own_duplicate(repo: Path) -> None:
    _library(repo)
    (repo / "documents").mkdir()
    shutil.move(repo / "pdf-extract-tables", repo / "documents" / "pdf-extract-tables")
    result = run_cli("commit", "-m", "move", "-C", str(repo))
    assert result.code == 0 and result.err == "", result


def test_new_skills_are_compared_with_head_not_each_other(repo: Path) -> None:
    _put(repo, "pdf-extract-tables")
    _put(repo, "pdf-table-extraction")
    result = run_cli("commit", "-m", "two at once", "-C", str(repo))
    assert result.code == 0 and result.err == "", result


def test_the_words_cache_holds_the_library_and_new_skills(repo: Path) -> None:
    _library(repo)
    cache_path = repo / ".git" / "gitcurator" / WORDS_CACHE
    cache = json.loads(cache_path.read_text())
    names = {key.split(":")[0] for key in cache}
    # Filled by the commit that added the PDF skills: the library then, and the new skills.
    assert names == {
        "pdf-extract",
        "docker-build",
        "helm-deploy",
        "pdf-extract-tables",
        "pdf-merge",
    }
    # A cache that is lost or corrupt is rebuilt from HEAD.
    cache_path.write_text("{not json")
    _put(repo, "pdf-table-extraction")
    assert run_cli("commit", "-m", "t", "-C", str(repo)).code == 1
    assert len(json.loads(cache_path.read_text())) == 6  # five at HEAD + the refused one

"""audit.restore_check: a branch's restore commit is accepted only as the pass makes it."""

from __future__ import annotations

from typing import Any

import pytest

from gitcurator.audit.restore_check import restore_problem, restores_report_problem

A, B, C = (b"a" * 40, 0o100644), (b"b" * 40, 0o100644), (b"c" * 40, 0o100644)
RESTORABLE = {"pdf": (".archive/docs/pdf", "docs/pdf")}
MOVE: dict[str, Any] = {
    ".archive/docs/pdf/SKILL.md": (A, None),
    ".archive/docs/pdf/notes.md": (B, None),
    "docs/pdf/SKILL.md": (None, A),
    "docs/pdf/notes.md": (None, B),
}
DIRS_GONE, DIRS_MADE = frozenset({".archive/docs/pdf"}), frozenset({"docs/pdf"})


@pytest.mark.parametrize(
    ("files", "names", "problem"),
    [
        (MOVE, ["pdf"], None),
        (MOVE, ["other"], "restores other, which a pass would not propose"),
        (MOVE, [], "names no restored skill"),
        (MOVE, ["pdf", "pdf"], "names no restored skill"),
        ({**MOVE, "docs/pdf/SKILL.md": (None, C)}, ["pdf"], "does not move .archive/docs/pdf"),
        ({**MOVE, "docs/pdf/extra.sh": (None, C)}, ["pdf"], "does not move .archive/docs/pdf"),
        ({**MOVE, "README.md": (A, C)}, ["pdf"], "changes README.md"),
        (
            {".archive/docs/pdf/SKILL.md": (A, None), "elsewhere/pdf/SKILL.md": (None, A)},
            ["pdf"],
            "changes elsewhere/pdf/SKILL.md",
        ),
        ({".archive/docs/pdf/SKILL.md": (A, None)}, ["pdf"], "does not move"),  # a deletion
        ({".archive/docs/pdf/SKILL.md": (A, C)}, ["pdf"], "does not move"),  # an edit in place
    ],
)
def test_only_the_pass_s_restore_commit_passes(
    files: dict[str, Any], names: list[str], problem: str | None
) -> None:
    found = restore_problem("abc", files, names, RESTORABLE, DIRS_GONE, DIRS_MADE)
    assert (found is None) if problem is None else (found is not None and problem in found)


@pytest.mark.parametrize(
    ("gone", "made"),
    [
        # Only SKILL.md moved: notes.md stays behind in .archive/docs/pdf, so the folder does
        # not disappear and the skill comes back without its support file.
        (frozenset(), DIRS_MADE),
        # docs/pdf was there already (an earlier commit of the branch wrote it): the restore
        # would merge the archived files into another folder's.
        (DIRS_GONE, frozenset()),
    ],
)
def test_a_restore_that_leaves_part_behind_or_lands_in_a_folder_is_refused(
    gone: frozenset[str], made: frozenset[str]
) -> None:
    partial = {".archive/docs/pdf/SKILL.md": (A, None), "docs/pdf/SKILL.md": (None, A)}
    found = restore_problem("abc", partial, ["pdf"], RESTORABLE, gone, made)
    assert found is not None and "does not move .archive/docs/pdf whole" in found


@pytest.mark.parametrize(
    ("doc", "restored", "ok"),
    [
        ({"restores": [{"skill": "pdf"}]}, ["pdf"], True),
        ({}, [], True),
        ({}, ["pdf"], False),
        ({"restores": [{"skill": "pdf"}]}, [], False),
        ({"restores": "pdf"}, ["pdf"], False),
        (None, ["pdf"], False),
    ],
)
def test_the_report_lists_the_restores_the_commits_make(
    doc: Any, restored: list[str], ok: bool
) -> None:
    assert (restores_report_problem("abc", "run.json", doc, restored) is None) == ok

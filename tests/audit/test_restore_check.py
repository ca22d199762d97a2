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
    found = restore_problem("abc", files, names, RESTORABLE)
    assert (found is None) if problem is None else (found is not None and problem in found)


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

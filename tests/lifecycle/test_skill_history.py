"""Per-skill facts from history: the pure fold and trailers (the walk: tests/store/)."""

from __future__ import annotations

import pytest

from gitcurator.lifecycle.skill_history import (
    EMPTY,
    CommitChanges,
    SkillHistory,
    fold_history,
    is_patch_commit,
    trailers,
)

RUN = "Curator-Run: 20260101-000000"


def c(n: int, message: str, *paths: str) -> CommitChanges:
    """Commit number `n` (its time is day `n` of January 2026)."""
    return CommitChanges(f"c{n}", f"2026-01-{n:02d}T00:00:00Z", message, paths)


def t(n: int) -> str:
    return f"2026-01-{n:02d}T00:00:00Z"


# -- trailers ------------------------------------------------------------------------------

TRAILER_CASES: list[tuple[str, str, dict[str, list[str]]]] = [
    ("subject only", "Curator-Run: x", {}),
    ("subject and body", "Edit pdf\n\nMore words here.", {}),
    (
        "trailer block",
        f"Archive 2 skills\n\nWhy.\n\n{RUN}\nCurator-Archived: a\nCurator-Archived: b\n",
        {"Curator-Run": ["20260101-000000"], "Curator-Archived": ["a", "b"]},
    ),
    (
        "trailers right after the subject",
        f"Archive a\n\n{RUN}",
        {"Curator-Run": ["20260101-000000"]},
    ),
    ("prose in the last paragraph", f"Archive a\n\n{RUN}\nthis is prose", {}),
    (
        "only the last paragraph counts",
        f"Archive a\n\n{RUN}\n\nSigned-off-by: A <a@b>",
        {"Signed-off-by": ["A <a@b>"]},
    ),
    (
        "continuation line",
        "S\n\nCurator-Reason: long\n  and wrapped",
        {"Curator-Reason": ["long and wrapped"]},
    ),
    ("space before the colon", "S\n\nCurator-Run : r1", {"Curator-Run": ["r1"]}),
    (
        "cherry-pick line",
        f"S\n\n{RUN}\n(cherry picked from commit abc)",
        {"Curator-Run": ["20260101-000000"]},
    ),
    (
        "CRLF and trailing blank lines",
        f"S\r\n\r\n{RUN}\r\n\r\n\r\n",
        {"Curator-Run": ["20260101-000000"]},
    ),
    ("a key with spaces is no trailer", "S\n\nNot a key: value", {}),
    ("empty message", "", {}),
]


@pytest.mark.parametrize(
    ("message", "expected"), [c[1:] for c in TRAILER_CASES], ids=[c[0] for c in TRAILER_CASES]
)
def test_trailers(message: str, expected: dict[str, list[str]]) -> None:
    assert trailers(message) == expected


PATCH_CASES = [
    ("a person's commit", "Fix the pdf steps", True),
    ("a curator commit", f"Archive a\n\n{RUN}\nCurator-Archived: a", False),
    ("keys are case-insensitive", "Archive a\n\ncurator-run: r1", False),
    ("a restore", f"Restore a\n\n{RUN}\nCurator-Restored: a", True),
    ("a rollback", f"Roll back\n\n{RUN}\nCurator-Rollback: r0", True),
    ("a restore without a run", "Restore a\n\nCurator-Restored: a", True),
    ("the trailer quoted in prose", f"Explain\n\nWe grep for {RUN} in logs.", True),
    ("git revert of a curator commit", 'Revert "Archive a"\n\nThis reverts commit abc.', True),
]


@pytest.mark.parametrize(
    ("message", "patch"), [c[1:] for c in PATCH_CASES], ids=[c[0] for c in PATCH_CASES]
)
def test_is_patch_commit(message: str, patch: bool) -> None:
    assert is_patch_commit(message) is patch


# -- fold_history --------------------------------------------------------------------------

FoldCase = tuple[str, list[CommitChanges], dict[str, str], str, dict[str, SkillHistory]]

FOLD_CASES: list[FoldCase] = [
    (
        "created, never patched",
        [c(1, "add", "a/SKILL.md", "a/references/n.md")],
        {"a": "a"},
        "",
        {"a": SkillHistory(t(1), 0, None)},
    ),
    (
        "a person's edits are patches; the creation is not",
        [c(1, "add", "a/SKILL.md"), c(2, "edit", "a/SKILL.md"), c(3, "edit", "a/scripts/x.sh")],
        {"a": "a"},
        "",
        {"a": SkillHistory(t(1), 2, t(3))},
    ),
    (
        "archive by a pass, then restore: one identity, restore is a patch",
        [
            c(1, "add", "a/SKILL.md"),
            c(2, "edit", "a/SKILL.md"),
            c(3, f"Archive a\n\n{RUN}", "a/SKILL.md", ".archive/a/SKILL.md"),
            c(4, f"Restore a\n\n{RUN}\nCurator-Restored: a", ".archive/a/SKILL.md", "a/SKILL.md"),
        ],
        {"a": "a"},
        "",
        {"a": SkillHistory(t(1), 2, t(4))},
    ),
    (
        "archived now: the archived folder is tracked",
        [
            c(1, "add", "cat/a/SKILL.md"),
            c(2, f"Archive\n\n{RUN}", "cat/a/SKILL.md", ".archive/cat/a/SKILL.md"),
        ],
        {".archive/cat/a": "a"},
        "",
        {"a": SkillHistory(t(1), 0, None)},
    ),
    (
        "a move between categories keeps the history",
        [
            c(1, "add", "old/a/SKILL.md"),
            c(2, "move", "old/a/SKILL.md", "new/a/SKILL.md"),
            c(3, "edit", "new/a/SKILL.md"),
        ],
        {"new/a": "a"},
        "",
        {"a": SkillHistory(t(1), 2, t(3))},
    ),
    (
        "a folder that never held SKILL.md is not the skill, whatever its name",
        [c(1, "add", "cat/a/SKILL.md"), c(2, "docs", "docs/a/README.md")],
        {"cat/a": "a"},
        "",
        {"a": SkillHistory(t(1), 0, None)},
    ),
    (
        "a SKILL.md deep inside a skill is that skill's file",
        [
            c(1, "add", "b/SKILL.md"),
            c(2, "add", "x/a/SKILL.md"),
            c(3, "add", "x/a/references/b/SKILL.md"),
        ],
        {"b": "b", "x/a": "a"},
        "",
        {"a": SkillHistory(t(2), 1, t(3)), "b": SkillHistory(t(1), 0, None)},
    ),
    (
        "inside a purged skill, a nested folder named like a live skill stays the purged one's",
        [
            c(1, "add", "b/SKILL.md", "gone/SKILL.md", "gone/b/notes.md"),
            c(2, "edit", "gone/b/notes.md"),
        ],
        {"b": "b"},
        "",
        {"b": SkillHistory(t(1), 0, None)},
    ),
    (
        "one commit counts once per skill, and for every skill it touches",
        [
            c(1, "add", "a/SKILL.md", "b/SKILL.md"),
            c(2, "both", "a/SKILL.md", "a/x.md", "b/SKILL.md"),
        ],
        {"a": "a", "b": "b"},
        "",
        {"a": SkillHistory(t(1), 1, t(2)), "b": SkillHistory(t(1), 1, t(2))},
    ),
    (
        "a tracked skill history never mentions is empty; untracked ones are left out",
        [c(1, "add", "gone/SKILL.md"), c(2, "rm", "gone/SKILL.md")],
        {"new": "new"},
        "",
        {"new": EMPTY},
    ),
    (
        "last_patched_at is the newest time even when commit times run backwards",
        [c(1, "add", "a/SKILL.md"), c(5, "edit", "a/SKILL.md"), c(3, "rebased", "a/SKILL.md")],
        {"a": "a"},
        "",
        {"a": SkillHistory(t(1), 2, t(5))},
    ),
    (
        "skills_dir: files outside the library do not count",
        [
            c(1, "add", "lib/a/SKILL.md", "a/SKILL.md"),
            c(2, "edit", "a/SKILL.md", "README.md"),
            c(3, f"Archive\n\n{RUN}", "lib/a/SKILL.md", "lib/.archive/a/SKILL.md"),
            c(4, "edit", "lib/.archive/a/SKILL.md"),
        ],
        {"lib/.archive/a": "a"},
        "lib/",
        {"a": SkillHistory(t(1), 1, t(4))},
    ),
    (
        "dependency trees and dot-folders hold no skills",
        [
            c(1, "add", "cat/a/SKILL.md"),
            c(2, "vendored", "node_modules/a/SKILL.md", ".hidden/a/SKILL.md"),
        ],
        {"cat/a": "a"},
        "",
        {"a": SkillHistory(t(1), 0, None)},
    ),
    (
        "a skill's own dot-folders and dependency trees are its files",
        [
            c(1, "add", "cat/a/SKILL.md"),
            c(2, "ci", "cat/a/.ci/x.yml", "cat/a/node_modules/m.js"),
        ],
        {"cat/a": "a"},
        "",
        {"a": SkillHistory(t(1), 1, t(2))},
    ),
    (
        "a SKILL.md in the archive folder itself makes no skill of the archive",
        [c(1, "add", ".archive/SKILL.md", ".archive/a/SKILL.md"), c(2, "edit", ".archive/a/x.md")],
        {".archive/a": "a"},
        "",
        {"a": SkillHistory(t(1), 1, t(2))},
    ),
    (
        "lower-case skill.md marks a skill folder too",
        [c(1, "add", "old/a/skill.md"), c(2, "move", "old/a/skill.md", "new/a/SKILL.md")],
        {"new/a": "a"},
        "",
        {"a": SkillHistory(t(1), 1, t(2))},
    ),
    (
        "files at the top and in category folders belong to no skill",
        [c(1, "add", "cat/a/SKILL.md"), c(2, "other", "cat/README.md", ".gitcurator.yaml")],
        {"cat/a": "a"},
        "",
        {"a": SkillHistory(t(1), 0, None)},
    ),
]


@pytest.mark.parametrize(
    ("commits", "folders", "skills_dir", "expected"),
    [case[1:] for case in FOLD_CASES],
    ids=[case[0] for case in FOLD_CASES],
)
def test_fold_history(
    commits: list[CommitChanges],
    folders: dict[str, str],
    skills_dir: str,
    expected: dict[str, SkillHistory],
) -> None:
    assert fold_history(commits, folders, skills_dir) == expected

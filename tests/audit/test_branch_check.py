"""audit.branch_check: which commits a pass could have written, judged from their changes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gitcurator.audit.branch_check import BranchFacts, CommitChange, Entry, branch_problem

RUN = "20260101-000000"
MD, JSON = f".curator/runs/{RUN}/REPORT.md", f".curator/runs/{RUN}/run.json"
SKILL, HELPER, SCRIPT = (b"s" * 40, 0o100644), (b"h" * 40, 0o100644), (b"x" * 40, 0o100755)
Files = Mapping[str, tuple[Entry | None, Entry | None]]


def _commit(
    files: Files,
    trailers: list[str],
    *,
    removed: frozenset[str] = frozenset(),
    added: frozenset[str] = frozenset(),
) -> CommitChange:
    message = "curator: something\n\n" + "\n".join([f"Curator-Run: {RUN}", *trailers]) + "\n"
    name = f"{len(files):02d}{len(trailers):02d}".ljust(40, "0")
    return CommitChange(name, message, 1, files, removed, added)


def _move(folder: str, to: str) -> dict[str, tuple[Entry | None, Entry | None]]:
    return {
        f"{folder}/SKILL.md": (SKILL, None),
        f"{folder}/scripts/run.sh": (SCRIPT, None),
        f"{to}/SKILL.md": (None, SKILL),
        f"{to}/scripts/run.sh": (None, SCRIPT),
    }


def _archive(folder: str = "pdf-extract", **extra: tuple[Entry | None, Entry | None]) -> Any:
    to = f".archive/{folder}"
    dirs = {folder, f"{folder}/scripts"}
    added = {".archive", to, f"{to}/scripts"}
    return _commit(
        {**_move(folder, to), **extra},
        [f"Curator-Archived: {folder.rsplit('/', 1)[-1]}"],
        removed=frozenset(dirs),
        added=frozenset(added),
    )


def _report(archived: list[str], consolidations: list[dict[str, Any]] | None = None) -> Any:
    doc = {
        "run_id": RUN,
        "transitions": [{"skill": s, "to": "archived"} for s in archived],
        "consolidations": consolidations or [],
    }
    files: Files = {MD: (None, (b"m" * 40, 0o100644)), JSON: (None, (b"j" * 40, 0o100644))}
    change = _commit(files, [f"Curator-Report: {MD}"])
    none: frozenset[str] = frozenset()
    return CommitChange(change.id[:-1] + "r", change.message, 1, files, none, none, doc)


def _umbrella(**extra: tuple[Entry | None, Entry | None]) -> Any:
    files: dict[str, tuple[Entry | None, Entry | None]] = {
        **_move("pdf/a", ".archive/pdf/a"),
        **_move("pdf/b", ".archive/pdf/b"),
        "pdf/pdf-tools/SKILL.md": (None, (b"u" * 40, 0o100644)),
        "pdf/pdf-tools/a/scripts/run.sh": (None, SCRIPT),
        "pdf/pdf-tools/references/b.md": (None, (b"d" * 40, 0o100644)),
        **extra,
    }
    removed = {"pdf/a", "pdf/a/scripts", "pdf/b", "pdf/b/scripts"}
    added = {".archive", ".archive/pdf", *(f".archive/{r}" for r in removed), "pdf/pdf-tools"}
    trailers = [
        "Curator-Umbrella: pdf-tools",
        "Curator-Absorbed-Into: a -> pdf-tools",
        "Curator-Absorbed-Into: b -> pdf-tools",
    ]
    return _commit(files, trailers, removed=frozenset(removed), added=frozenset(added))


def _fold_doc() -> list[dict[str, Any]]:
    return [{"umbrella": "pdf-tools", "absorbed": ["a"], "demoted": ["b"]}]


def _problem(*commits: CommitChange, related: bool = True) -> str | None:
    return branch_problem(BranchFacts(f"curator/{RUN}", RUN, "main", related, list(commits)))


def test_what_a_pass_writes_passes() -> None:
    assert _problem(_archive(), _report(["pdf-extract"])) is None
    assert _problem(_archive("devops/k8s/helm"), _report(["helm"])) is None
    assert _problem(_archive(), _umbrella(), _report(["pdf-extract"], _fold_doc())) is None
    assert _problem(_umbrella(), _report([], _fold_doc())) is None
    assert _problem(_report([])) is None


@pytest.mark.parametrize(
    ("commits", "expected"),
    [
        ((_archive(**{"k8s/SKILL.md": (SKILL, None)}), _report(["pdf-extract"])), "deletes k8s"),
        ((_archive(**{"k8s/SKILL.md": (SKILL, SKILL[:1])}),), "adds or edits k8s/SKILL.md"),
        ((_archive(**{".archive/x.sh": (None, SCRIPT)}),), "adds or edits .archive/x.sh"),
        ((_report(["pdf-extract"]),), "archives pdf-extract but the commits archive nothing"),
        ((_archive(), _report([])), "archives nothing but the commits archive pdf-extract"),
        ((_archive(),), "is not the pass's only report commit"),
        ((_report([]), _archive()), "is not the pass's only report commit"),
        ((_umbrella(**{"pdf/c/SKILL.md": (SKILL, None)}),), "deletes pdf/c"),
        ((_umbrella(**{"pdf/pdf-tools/x.sh": (None, (b"n" * 40, 0o100755))}),), "adds pdf/pdf-t"),
        (
            (_umbrella(**{"other/SKILL.md": (SKILL, HELPER)}),),
            "changes other/SKILL.md outside umbrella",
        ),
        ((_umbrella(**{"pdf/pdf-tools/r.md": (HELPER, SKILL)}),), "edits pdf/pdf-tools/r.md"),
        ((_umbrella(), _report([])), "lists other umbrellas than the commits"),
        (
            (_commit({"k8s/SKILL.md": (SKILL, HELPER)}, ["Curator-Umbrella: k8s"]),),
            "names no single umbrella for what it folds",
        ),
    ],
)
def test_anything_else_is_named(commits: tuple[CommitChange, ...], expected: str) -> None:
    problem = _problem(*commits)
    assert problem is not None and expected in problem, problem


def test_a_deleted_live_skill_is_named_with_its_folder() -> None:
    gone = _commit(
        {"pdf/SKILL.md": (SKILL, None)}, ["Curator-Archived: pdf"], removed=frozenset({"pdf"})
    )
    assert _problem(gone, _report(["pdf"])) == (
        f"commit {gone.id[:12]} deletes live skills pdf (a pass only moves whole folders into "
        ".archive/)"
    )


def test_a_foreign_commit_a_merge_and_an_unrelated_history_are_refused() -> None:
    foreign = CommitChange("f" * 40, "add a skill\n", 1, {}, frozenset(), frozenset())
    assert "does not carry `Curator-Run: 20260101-000000`" in (_problem(foreign) or "")
    other_run = _commit({}, []).message.replace(RUN, "20250101-000000")
    wrong = CommitChange("e" * 40, other_run, 1, {}, frozenset(), frozenset())
    assert "does not carry" in (_problem(wrong, _report([])) or "")
    report = _report([])
    merge = CommitChange(report.id, report.message, 2, report.files, frozenset(), frozenset())
    assert "is a merge" in (_problem(merge) or "")
    assert "does not start from main's history" in (_problem(_report([]), related=False) or "")

"""lifecycle.restore_proposals: where an archived skill goes back to, and which wanted ones a
pass proposes back (table-driven)."""

from __future__ import annotations

from typing import Any

import pytest
from support.skill_rows import skill_row

from gitcurator.lifecycle.restore_proposals import (
    propose_restores,
    restore_target,
    restored_counts,
    restored_name,
)


@pytest.mark.parametrize(
    ("source", "name", "skills_dir", "target"),
    [
        (".archive/pdf", "pdf", "", "pdf"),
        (".archive/devops/docker-build", "docker-build", "", "devops/docker-build"),
        ("lib/.archive/devops/k8s/helm", "helm", "lib", "lib/devops/k8s/helm"),
        (".archive/x-2", "x", "", "x"),
    ],
)
def test_where_an_archived_skill_goes_back(
    source: str, name: str, skills_dir: str, target: str
) -> None:
    assert restore_target(source, name, skills_dir) == target


@pytest.mark.parametrize(
    ("dirname", "said", "name"),
    [("x-2", "x", "x"), ("x-2", "x-2", "x-2"), ("x-2", None, "x-2"), ("v1-2", "other", "v1-2")],
)
def test_the_name_a_copy_holds(dirname: str, said: str | None, name: str) -> None:
    assert restored_name(dirname, said) == name


def _archived(name: str, wanted: int, path: str | None = None, **more: Any) -> Any:
    return skill_row(
        name=name,
        path=path or f".archive/{name}",
        state="archived",
        wanted_count=wanted,
        archived_at="2026-02-01T00:00:00Z",
        **more,
    )


LIVE = skill_row(name="pdf", path="docs/pdf")


@pytest.mark.parametrize(
    ("rows", "paths", "expected"),
    [
        ([_archived("a", 2)], [".archive/a/SKILL.md"], [("a", ".archive/a", "a", 2)]),
        ([_archived("a", 1)], [".archive/a/SKILL.md"], []),  # below the threshold
        ([_archived("a", 5)], [".archive/a/SKILL.md", "a/notes.md"], []),  # folder taken
        ([_archived("pdf", 3, ".archive/docs/pdf"), LIVE], [], []),  # a live skill has the name
        ([_archived("a", 9, protected=True)], [], []),  # protect: lists it
        (
            [_archived("a", 2), _archived("b", 4, ".archive/tools/b")],
            [],
            [("a", ".archive/a", "a", 2), ("b", ".archive/tools/b", "tools/b", 4)],
        ),
        # Two archived copies of one name: a want of `x` is counted on the record `x` (the
        # older copy's folder name) whichever copy was archived last, so which one is wanted
        # is unknown; neither is proposed, as `restore x` asks for the folder.
        ([_archived("x", 2), _archived("x-2", 3)], [], []),
        ([_archived("x", 3), _archived("x-2", 0)], [], []),
        ([skill_row(name="live", wanted_count=0)], [], []),
    ],
)
def test_which_wanted_skills_a_pass_proposes_back(
    rows: list[Any], paths: list[str], expected: list[tuple[str, str, str, int]]
) -> None:
    found = propose_restores(rows, paths, lambda folder: "x", "", 2)
    assert [(p.name, p.source, p.target, p.wanted) for p in found] == expected


def test_counts_after_a_restore() -> None:
    assert restored_counts({"active": 3, "archived": 2}, 2) == {"active": 5, "archived": 0}
    assert restored_counts({"archived": 1}, 1) == {"active": 1, "archived": 0}

"""The library scanned for references: skills' Markdown, reference files, files left unread,
self-references and cycles."""

from __future__ import annotations

import pytest
from support.plans import blob_id, skill_md

from gitcurator.references.graph import ReferenceGraph
from gitcurator.references.scan import MAX_REFERENCE_BYTES, scan_entries
from gitcurator.skills.document import find_skills

GLOBS = ("AGENTS.md", "CLAUDE.md", "**/AGENTS.md")


def _graph(files: dict[str, bytes], links: tuple[str, ...] = (), globs=GLOBS) -> ReferenceGraph:
    blobs = {blob_id(d): d for d in files.values()}
    entries = {p: (blob_id(d), 0o120000 if p in links else 0o100644) for p, d in files.items()}
    locations = find_skills(entries)
    return scan_entries(entries, blobs.__getitem__, locations, globs, {"old-name": "pdf-forms"})[0]


def _edges(graph: ReferenceGraph) -> list[tuple[str, str, str, str]]:
    return [(r.source, r.target, r.kind, r.where) for r in graph.references]


def test_links_into_a_skill_folder_are_references_to_that_skill() -> None:
    body = (
        "See [forms](../pdf-forms/SKILL.md#fields), [its folder](../pdf-forms/),\n"
        '[a reference](../pdf-forms/references/x.md "title"), [web](https://x.dev/pdf-forms),\n'
        "[anchor](#pdf-forms), [out](../../elsewhere/SKILL.md) and [mine](references/y.md).\n"
    )
    graph = _graph(
        {
            "pdf-tools/SKILL.md": skill_md("pdf-tools", body=body),
            "pdf-forms/SKILL.md": skill_md("pdf-forms"),
        }
    )
    assert [(s, t, k) for s, t, k, _ in _edges(graph)] == [("pdf-tools", "pdf-forms", "link")] * 3
    assert [r.text for r in graph.references] == [
        "../pdf-forms/SKILL.md",
        "../pdf-forms/",
        "../pdf-forms/references/x.md",
    ]
    assert [r.line for r in graph.references] == [8, 8, 9]


def test_reference_files_support_files_archived_skills_and_aliases() -> None:
    graph = _graph(
        {
            "AGENTS.md": b"Always load `pdf-forms`.\n",
            "team/AGENTS.md": b"\n\nskill:old-name and skill:nowhere\n",
            "README.md": b"`pdf-forms`\n",  # matches no glob
            "pdf-tools/SKILL.md": skill_md("pdf-tools"),
            "pdf-tools/references/notes.md": b"Then /pdf-forms.\n",
            "pdf-tools/scripts/run.sh": b"$pdf-forms\n",  # not Markdown
            "pdf-forms/SKILL.md": skill_md("pdf-forms"),
            ".archive/old-skill/SKILL.md": skill_md("old-skill", body="Use `pdf-forms`."),
            ".archive/old-skill/AGENTS.md": b"`pdf-tools`\n",
            ".curator/runs/x/AGENTS.md": b"`pdf-tools`\n",
        }
    )
    by_source = {(r.source, r.target): r for r in graph.references}
    assert sorted(r.where for r in graph.references) == [
        ".archive/old-skill/AGENTS.md:1",
        ".archive/old-skill/SKILL.md:8",
        "AGENTS.md:1",
        "pdf-tools/references/notes.md:1",
        "team/AGENTS.md:3",
        "team/AGENTS.md:3",
    ]
    assert set(by_source) == {
        ("old-skill", "pdf-forms"),
        ("old-skill", "pdf-tools"),
        ("AGENTS.md", "pdf-forms"),
        ("pdf-tools", "pdf-forms"),
        ("team/AGENTS.md", "old-name"),
        ("team/AGENTS.md", "nowhere"),
    }
    assert not by_source[("old-skill", "pdf-forms")].live
    assert by_source[("AGENTS.md", "pdf-forms")].live
    assert not by_source[("AGENTS.md", "pdf-forms")].from_skill
    # A reference to an absorbed name counts for its umbrella; archived skills keep nothing.
    assert graph.live_referrers({"old-name": "pdf-forms"}) == {
        "nowhere": (("", "team/AGENTS.md:3"),),
        "old-name": (("", "team/AGENTS.md:3"),),
        "pdf-forms": (
            ("", "AGENTS.md:1"),
            ("", "team/AGENTS.md:3"),
            ("pdf-tools", "pdf-tools/references/notes.md:1"),
        ),
    }


@pytest.mark.parametrize(
    ("data", "link", "note"),
    [
        (b"`pdf-forms`\0\x01\x02", False, "AGENTS.md: skipped, a binary file"),
        (b"`pdf-forms` " + b"x" * MAX_REFERENCE_BYTES, False, "over the 1048576"),
        (b"`pdf-forms` \xff\xfe", False, "AGENTS.md: skipped, not UTF-8 text"),
        (b"../../etc/passwd", True, "AGENTS.md: skipped, not a regular file"),
    ],
)
def test_a_reference_file_that_cannot_be_read_is_skipped_with_a_note(
    data: bytes, link: bool, note: str
) -> None:
    graph = _graph(
        {"AGENTS.md": data, "pdf-forms/SKILL.md": skill_md("pdf-forms")},
        links=("AGENTS.md",) if link else (),
    )
    assert graph.references == ()
    [said] = graph.notes
    assert note in said


def test_a_self_reference_is_none_and_a_cycle_is_two() -> None:
    graph = _graph(
        {
            "a-skill/SKILL.md": skill_md("a-skill", body="I am `a-skill`; see `b-skill`."),
            "b-skill/SKILL.md": skill_md("b-skill", body="See [a](../a-skill/SKILL.md)."),
        }
    )
    assert [(r.source, r.target) for r in graph.references] == [
        ("a-skill", "b-skill"),
        ("b-skill", "a-skill"),
    ]
    assert [r.source for r in graph.to("a-skill")] == ["b-skill"]
    assert [r.target for r in graph.of("a-skill")] == ["b-skill"]


def test_custom_globs_and_none() -> None:
    files = {"docs/cron.yaml": b"run: $pdf-forms\n", "pdf-forms/SKILL.md": skill_md("pdf-forms")}
    assert [r.where for r in _graph(files, globs=("docs/*.yaml",)).references] == [
        "docs/cron.yaml:1"
    ]
    assert _graph(files, globs=()).references == ()

"""The pure parts of following upstream: provenance trailers and records, renames, sources,
the intake limits, the update branch check."""

from __future__ import annotations

import pytest

from gitcurator.audit.update_check import UpdateCommit, UpdateFacts, marker_paths, update_problem
from gitcurator.telemetry.records import Stamped, UsageRecord, check_doc, from_doc, to_doc
from gitcurator.upstream.folder_merge import FileEntry
from gitcurator.upstream.intake import MAX_FILE_BYTES, intake_problems
from gitcurator.upstream.provenance import (
    Provenance,
    from_value,
    parse_source_trailer,
    source_trailer,
)
from gitcurator.upstream.rename import renamed_skill_md
from gitcurator.upstream.source_spec import side_ref, wanted_refs

SHA = "a" * 40


@pytest.mark.parametrize(
    "prov",
    [
        Provenance("https://github.com/anthropics/skills.git", "skills/pdf", None, SHA),
        Provenance("/home/me/my skills", "a b/c", "release 1", SHA),
        Provenance("git@example.com:team/skills.git", "", "v1.2", SHA),
        Provenance("ssh://u@h/x%20y", "p%q", "refs/heads/x", SHA),
    ],
)
def test_the_trailer_reads_back_what_it_wrote(prov: Provenance) -> None:
    value = source_trailer("pdf", prov)
    assert " " not in value.split(" ", 1)[1].split(" path=")[0]
    assert parse_source_trailer(value) == ("pdf", prov)


def test_a_trailer_of_another_shape_is_not_read() -> None:
    assert parse_source_trailer("pdf from somewhere") is None
    assert parse_source_trailer(f"pdf url@{SHA[:12]} path=x") is None


def test_the_record_keeps_the_source_through_its_schema() -> None:
    prov = Provenance("https://x/y.git", "skills/pdf", None, SHA)
    record = UsageRecord("pdf", origin=Stamped("hub", "2026-01-01T00:00:00Z"))
    record = UsageRecord(
        "pdf", origin=record.origin, source=Stamped(prov.to_value(), "2026-01-01T00:00:00Z")
    )
    doc = to_doc(record)
    assert check_doc(doc, "pdf") == []
    assert from_value(from_doc(doc).source.value) == prov  # type: ignore[union-attr]
    doc["source"]["value"]["commit"] = "not-a-sha"
    assert check_doc(doc, "pdf")


def test_rename_touches_only_the_name_line() -> None:
    text = b"---\nname: pdf\ndescription: d\n---\n\nname: in the body stays\n"
    assert renamed_skill_md(text, "pdf-two") == (
        b"---\nname: pdf-two\ndescription: d\n---\n\nname: in the body stays\n"
    )
    assert b'name: "PDF Tools"' in renamed_skill_md(text, "PDF Tools")
    assert renamed_skill_md(b"---\ndescription: d\n---\n", "x").startswith(b"---\nname: x\n")
    assert renamed_skill_md(b"no frontmatter\n", "x") == b"no frontmatter\n"


def test_sources_and_refs() -> None:
    assert side_ref("u", None) != side_ref("u", "main") != side_ref("v", "main")
    assert side_ref("u", None).startswith(b"refs/gitcurator/sources/")
    assert wanted_refs(None) == (b"HEAD",)
    assert wanted_refs("v1")[:2] == (b"refs/heads/v1", b"refs/tags/v1")


def test_intake_limits() -> None:
    files = {
        "SKILL.md": FileEntry(b"", 0o100644),
        "big.bin": FileEntry(b"", 0o100644),
        "vendor": FileEntry(b"", 0o160000),
        "out": FileEntry(b"../../x", 0o120000),
    }
    sizes = {"SKILL.md": 10, "big.bin": MAX_FILE_BYTES + 1, "out": 7}
    problems = intake_problems("skills/pdf", files, sizes)
    assert [p.split(":")[0] for p in problems] == [
        "skills/pdf/big.bin",
        "skills/pdf/out",
        "skills/pdf/vendor",
    ]


def _facts(*commits: UpdateCommit) -> UpdateFacts:
    return UpdateFacts("update/r1", "r1", "main", True, commits, {"pdf": "pdf", "notes": "notes"})


def _update(paths: set[str], names: tuple[str, ...] = ("pdf",)) -> UpdateCommit:
    block = "\n".join(f"Skill-Source: {n} https://x/y.git@{SHA} path=s/{n}" for n in names)
    return UpdateCommit("1" * 40, f"update: x\n\nUpdate-Run: r1\n{block}\n", 1, frozenset(paths))


def test_the_update_branch_check() -> None:
    own = _update({"pdf/SKILL.md", "skills-lock.json"})
    assert update_problem(_facts(own)) is None
    fix = UpdateCommit("2" * 40, "fix", 1, frozenset({"pdf/SKILL.md"}))
    assert update_problem(_facts(own, fix)) is None
    sneaky = UpdateCommit("3" * 40, "fix", 1, frozenset({"notes/SKILL.md"}))
    assert "outside the skills" in str(update_problem(_facts(own, sneaky)))
    merge = UpdateCommit("4" * 40, "merge", 2, frozenset({"pdf/SKILL.md"}))
    assert "is a merge" in str(update_problem(_facts(own, merge)))
    foreign = UpdateCommit("5" * 40, "edit\n\nUpdate-Run: r2\n", 1, frozenset({"pdf/x"}))
    assert "Update-Run: r1" in str(update_problem(_facts(foreign)))
    assert update_problem(UpdateFacts("update/r1", "r1", "main", False, [own]))
    # A named skill's name deeper in another skill's folder does not open that folder.
    inside = UpdateCommit("6" * 40, "fix", 1, frozenset({"notes/pdf/x.md"}))
    assert "outside the skills" in str(update_problem(_facts(own, inside)))
    ghost = _update({"ghost/SKILL.md"}, ("ghost",))
    assert "holds no live skill" in str(update_problem(_facts(ghost)))


def test_marker_paths() -> None:
    files = {
        "a.md": b"x\n<<<<<<< ours\ny\n=======\nz\n>>>>>>> theirs\n",
        "b.md": b"a line of ======= inside\n<<<<<< six\n",
        "c.md": b"Title\n=======\n",
        "d.md": b"<<<<<<< ours\r\nx\r\n>>>>>>> theirs\r\n",
    }
    assert marker_paths(files) == ["a.md", "d.md"]


def test_paths_that_differ_only_in_case_are_refused() -> None:
    from gitcurator.upstream.folder_merge import FileEntry
    from gitcurator.upstream.intake import intake_problems

    files = {
        p: FileEntry(b"", 0o100644) for p in ("SKILL.md", "README.md", "readme.md", "a/x", "A/y")
    }
    problems = intake_problems("pdf", files, {})
    assert problems == [
        "pdf/A and pdf/a: one path on a case-blind file system (macOS, Windows), where one would "
        "overwrite the other",
        "pdf/README.md and pdf/readme.md: one path on a case-blind file system (macOS, Windows), "
        "where one would overwrite the other",
    ]
    assert intake_problems("pdf", {"SKILL.md": FileEntry(b"", 0o100644)}, {}) == []

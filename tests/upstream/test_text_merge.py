"""The text merge agrees with real `git merge-file -p`, case by case, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.merge_files import git_merge_file

from gitcurator.upstream.text_merge import merge_text

SKILL = b"""---
name: pdf-extract
description: Use when a PDF's tables are needed.
---

# pdf-extract

1. Open the file.
2. Find the tables.
3. Write them as CSV.

## Notes

Large files are slow.
"""

# (name, base, ours, theirs)
CASES = [
    ("apart", b"a\nb\nc\nd\ne\nf\n", b"A\nb\nc\nd\ne\nf\n", b"a\nb\nc\nd\ne\nF\n"),
    ("same change", b"a\nb\nc\n", b"a\nB\nc\n", b"a\nB\nc\n"),
    ("same line", b"a\nb\nc\n", b"a\nX\nc\n", b"a\nY\nc\n"),
    ("adjacent lines conflict", b"a\nb\nc\nd\n", b"a\nB\nc\nd\n", b"a\nb\nC\nd\n"),
    ("one line apart", b"a\nb\nc\nd\n", b"A\nb\nc\nd\n", b"a\nb\nC\nd\n"),
    ("insert same place", b"a\nb\n", b"a\nx\nb\n", b"a\ny\nb\n"),
    ("insert same lines", b"a\nb\n", b"a\nx\nb\n", b"a\nx\nb\n"),
    ("delete and edit apart", b"a\nb\nc\nd\ne\n", b"a\nc\nd\ne\n", b"a\nb\nc\nd\nE\n"),
    ("both delete", b"a\nb\nc\n", b"a\nc\n", b"a\nc\n"),
    ("delete against edit", b"a\nb\nc\n", b"a\nc\n", b"a\nB\nc\n"),
    ("append to unterminated", b"a\nb", b"a\nb\nc\n", b"x\na\nb"),
    ("unterminated last line", b"a\nb", b"a\nB", b"a\nC"),
    ("newline added and edit", b"a\nb\nc\nd", b"A\nb\nc\nd", b"a\nb\nc\nd\n"),
    ("crlf apart", b"a\r\nb\r\nc\r\nd\r\n", b"A\r\nb\r\nc\r\nd\r\n", b"a\r\nb\r\nc\r\nD\r\n"),
    ("crlf conflict", b"a\r\nb\r\nc\r\n", b"a\r\nX\r\nc\r\n", b"a\r\nY\r\nc\r\n"),
    ("crlf unterminated conflict", b"a\r\nb", b"a\r\nX", b"a\r\nY"),
    ("mixed endings", b"a\nb\r\nc\n", b"a\nB\r\nc\n", b"a\nb\r\nC\n"),
    ("lone cr", b"a\rb\nc\n", b"a\rB\nc\n", b"a\rb\nc\nd\n"),
    ("empty base, different adds", b"", b"x\ny\n", b"x\nz\n"),
    ("empty base, same adds", b"", b"x\n", b"x\n"),
    ("all empty", b"", b"", b""),
    ("emptied against edit", b"a\nb\n", b"", b"a\nB\n"),
    ("emptied both", b"a\nb\n", b"", b""),
    ("ours unchanged", b"a\nb\n", b"a\nb\n", b"q"),
    ("theirs unchanged", b"a\nb\n", b"a", b"a\nb\n"),
    ("narrowed to the differing line", b"1\n2\n3\n4\n5\n", b"1\nA\nx\nB\n5\n", b"1\nA\ny\nB\n5\n"),
    (
        "close conflicts joined",
        b"1\n2\n3\n4\n5\n6\n",
        b"1\nA\n3\n4\nC\n6\n",
        b"1\nB\n3\n4\nD\n6\n",
    ),
    (
        "far conflicts apart",
        b"1\n2\n3\n4\n5\n6\n7\n8\n",
        b"1\nA\n3\n4\n5\n6\nC\n8\n",
        b"1\nB\n3\n4\n5\n6\nD\n8\n",
    ),
    (
        "punctuation between conflicts joined",
        b"1\n2\n}\n}\n\n}\n7\n8\n",
        b"1\nA\n}\n}\n\n}\nC\n8\n",
        b"1\nB\n}\n}\n\n}\nD\n8\n",
    ),
    ("both append different", b"a\n", b"a\nb\n", b"a\nc\n"),
    ("repeated line slides", b"a\nb\nc\nd\n", b"a\nb\nb\nc\nd\n", b"a\nb\nc\nd\nD\n"),
    ("repeated block", b"x\n}\n\n}\ny\n", b"x\n}\n\n}\n\n}\ny\n", b"X\n}\n\n}\ny\n"),
    ("latin-1 bytes", b"caf\xe9\nb\n", b"caf\xe9!\nb\n", b"caf\xe9\nB\n"),
    (
        "skill: upstream rewords, local fixes a step",
        SKILL,
        SKILL.replace(b"2. Find the tables.", b"2. Find every table, even rotated ones."),
        SKILL.replace(b"a PDF's tables are needed", b"tables must come out of a PDF"),
    ),
    (
        "skill: both fix the same step",
        SKILL,
        SKILL.replace(b"3. Write them as CSV.", b"3. Write them as CSV (UTF-8)."),
        SKILL.replace(b"3. Write them as CSV.", b"3. Write them as TSV."),
    ),
    (
        "skill: upstream adds a section, local adds a note",
        SKILL,
        SKILL + b"Scanned pages need OCR first.\n",
        SKILL.replace(b"## Notes", b"## Errors\n\nA locked PDF fails.\n\n## Notes"),
    ),
]


@pytest.mark.parametrize(("name", "base", "ours", "theirs"), CASES, ids=[c[0] for c in CASES])
def test_the_merge_is_what_git_merge_file_gives(
    tmp_path: Path, name: str, base: bytes, ours: bytes, theirs: bytes
) -> None:
    expected, conflicts = git_merge_file(tmp_path, base, ours, theirs)
    merged = merge_text(base, ours, theirs)
    assert merged.conflicts == conflicts
    assert merged.content == expected


def test_the_table_has_clean_merges_and_conflicts(tmp_path: Path) -> None:
    counts = [git_merge_file(tmp_path, b, o, t)[1] for _, b, o, t in CASES]
    assert counts.count(0) >= 15
    assert sum(1 for c in counts if c) >= 10
    assert any(c >= 2 for c in counts)


def test_markers_carry_the_labels() -> None:
    merged = merge_text(b"a\n", b"b\n", b"c\n", labels=("mine", "old", "theirs"))
    assert merged.content == b"<<<<<<< mine\nb\n=======\nc\n>>>>>>> theirs\n"
    assert merged.conflicts == 1


lines = st.lists(st.sampled_from([b"a\n", b"b\n", b"c\n", b"\n", b"}\n", b"d"]), max_size=12)
texts = lines.map(b"".join)


@given(texts, texts)
def test_a_side_left_alone_gives_the_other(base: bytes, other: bytes) -> None:
    assert merge_text(base, base, other).content == other
    assert merge_text(base, other, base).content == other
    assert merge_text(base, other, other) == merge_text(base, other, base)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(texts, texts, texts)
def test_real_git_agrees_on_random_edits(
    tmp_path_factory: pytest.TempPathFactory, base: bytes, ours: bytes, theirs: bytes
) -> None:
    expected, conflicts = git_merge_file(tmp_path_factory.mktemp("m"), base, ours, theirs)
    merged = merge_text(base, ours, theirs)
    assert (merged.conflicts, merged.content) == (conflicts, expected)


def test_real_git_agrees_on_long_files_with_many_edits(tmp_path: Path) -> None:
    """Past git's search bounds (hundreds of edits) the diff takes git's shortcuts too."""
    import random

    rng = random.Random(16)
    base = [b"%d\n" % rng.randrange(40) for _ in range(2500)]

    def edited() -> bytes:
        lines = list(base)
        for _ in range(700):
            at = rng.randrange(len(lines))
            lines[at : at + rng.randrange(2)] = [b"%d\n" % rng.randrange(80)] * rng.randrange(3)
        return b"".join(lines)

    ours, theirs = edited(), edited()
    expected, conflicts = git_merge_file(tmp_path, b"".join(base), ours, theirs)
    merged = merge_text(b"".join(base), ours, theirs)
    assert merged.content == expected
    assert min(merged.conflicts, 127) == conflicts  # git's exit code stops at 127

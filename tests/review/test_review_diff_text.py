"""The diffs' text (pure): git's header lines, the umbrella against its sources, and colour
added only around text already made safe for a terminal."""

from __future__ import annotations

from gitcurator.review.diff_text import FileChange, file_diff, paint, umbrella_diff


def test_a_move_is_shown_as_a_rename() -> None:
    text = paint(
        file_diff(FileChange("a/SKILL.md", ".archive/a/SKILL.md", None, None, renamed_whole=True)),
        colour=False,
    )
    assert text == (
        "diff --git a/a/SKILL.md b/.archive/a/SKILL.md\nsimilarity index 100%\n"
        "rename from a/SKILL.md\nrename to .archive/a/SKILL.md"
    )


def test_new_changed_deleted_and_binary_files() -> None:
    new = paint(file_diff(FileChange(None, "r.md", None, "one\ntwo\n")), colour=False)
    assert "--- /dev/null\n+++ b/r.md\n@@ -0,0 +1,2 @@\n+one\n+two" in new
    changed = paint(file_diff(FileChange("r.md", "r.md", "one\n", "uno\n")), colour=False)
    assert "-one\n+uno" in changed
    gone = paint(file_diff(FileChange("r.md", None, "one\n", None)), colour=False)
    assert "deleted file" in gone and "+++ /dev/null" in gone and "-one" in gone
    binary = paint(file_diff(FileChange(None, "x.png", None, None, binary=True)), colour=False)
    assert binary.endswith("Binary files a/x.png and b/x.png differ")


def test_the_umbrella_is_diffed_against_its_sources_concatenated() -> None:
    lines = umbrella_diff(
        "u/SKILL.md",
        "# U\nstep a\nstep b\n",
        [("a/SKILL.md", "step a"), ("b/SKILL.md", "step b\n")],
    )
    text = paint(lines, colour=False)
    assert "what it absorbed: a/SKILL.md + b/SKILL.md" in text
    # A source without a final newline does not run into the next one.
    assert "+# U\n step a\n step b" in text


def test_colour_wraps_safe_text_only() -> None:
    lines = file_diff(FileChange("r.md", "r.md", "old\n", "new \x1b]0;pwned\x07\n"))
    coloured = paint(lines, colour=True)
    assert "\x1b[32m+new \\x1b]0;pwned\\x07\x1b[m" in coloured
    assert "\x1b[31m-old\x1b[m" in coloured and "\x1b[36m@@" in coloured
    plain = paint(lines, colour=False)
    assert "\x1b" not in plain and "\\x1b]0;pwned" in plain


def test_a_newline_in_a_path_cannot_forge_a_line_of_the_diff() -> None:
    text = paint(file_diff(FileChange(None, "a\n+++ b/evil", None, "x\n")), colour=False)
    assert "\n+++ b/evil" not in text and "diff --git a/a\\x0a+++ b/evil" in text
    umbrella = paint(umbrella_diff("u\nv/SKILL.md", "x\n", [("s\nt/SKILL.md", "x\n")]), False)
    assert "umbrella u\\x0av/SKILL.md against what it absorbed: s\\x0at/SKILL.md" in umbrella


def test_a_file_whose_text_is_not_read_says_why() -> None:
    text = paint(file_diff(FileChange("r.md", "r.md", None, None, omitted="over 1 MB")), False)
    assert text.endswith("Files a/r.md and b/r.md differ, not shown: over 1 MB")

"""Which words of a text name a skill: the marked forms count, plain words never do."""

from __future__ import annotations

import pytest

from gitcurator.references.mentions import name_mentions

NAMES = {"pdf-forms", "git", "test", "PDF Tools", "v1.2-notes", "docs"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The four marked forms, in prose.
        ("Use `pdf-forms` for that.", [("pdf-forms", "backticks")]),
        ("Load skill:pdf-forms first.", [("pdf-forms", "skill-prefix")]),
        ("Then run /pdf-forms.", [("pdf-forms", "slash")]),
        ("Codex calls $pdf-forms here.", [("pdf-forms", "codex")]),
        # Inside inline code the prefixed forms count too.
        ("Type `/pdf-forms` or `$pdf-forms`.", [("pdf-forms", "slash"), ("pdf-forms", "codex")]),
        # A hyphenated name in prose is a reference (the documented judgement call).
        ("See the pdf-forms skill.", [("pdf-forms", "prose")]),
        ("A table (OCR first: pdf-forms).", [("pdf-forms", "prose")]),
        ("Ends a sentence: skill:pdf-forms.", [("pdf-forms", "skill-prefix")]),
        # Plain words that are skill names are not references.
        ("Run git, then test the result with git.", []),
        ("Write the test docs.", []),
        # ... but a whole code span is, even for a one-word name.
        ("Run `git` first.", [("git", "backticks")]),
        ("A name with a space: `PDF Tools`.", [("PDF Tools", "backticks")]),
        # Part of a code span, a path, a URL, a file name, a longer name: not references.
        ("Run `git commit -m x`.", []),
        ("See /usr/bin/pdf-forms and a/pdf-forms.", []),
        ("At https://example.com/pdf-forms or pdf-forms.md.", []),
        ("The pdf-forms-extra skill and my-pdf-forms.", []),
        ("$HOME and /etc and skill: pdf-forms", [("pdf-forms", "prose")]),
        # Fenced code blocks and HTML comments are examples and notes.
        ("```\n$pdf-forms /pdf-forms `pdf-forms` pdf-forms\n```\n", []),
        ("~~~sh\nskill:pdf-forms\n~~~\n", []),
        ("<!-- pdf-forms, skill:pdf-forms -->", []),
        ("Dotted names: `v1.2-notes` and v1.2-notes.", [("v1.2-notes", "backticks")]),
    ],
)
def test_mentions(text: str, expected: list[tuple[str, str]]) -> None:
    found = name_mentions(text, NAMES)
    assert [(m.name, m.kind) for m in found] == expected
    for m in found:
        assert text[m.start : m.end] == m.name


def test_an_unknown_name_counts_only_in_the_skill_prefix_form_when_asked() -> None:
    text = "skill:nowhere, `nowhere`, /nowhere, $nowhere and no-where."
    assert name_mentions(text, NAMES) == []
    found = name_mentions(text, NAMES, any_prefixed=True)
    assert [(m.name, m.kind) for m in found] == [("nowhere", "skill-prefix")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Hermes's frontmatter: one-word names listed as related skills are references.
        (
            "---\nname: x\nmetadata:\n  hermes:\n    related_skills: [git, 'docs', \"pdf-forms\"]\n"
            "---\n\nUse git and docs.\n",
            [("git", "related"), ("docs", "related"), ("pdf-forms", "related")],
        ),
        (
            "---\r\nname: x\r\nrelated_skills:\r\n  - test\r\n  - pdf-forms  # the forms\r\n"
            "other: docs\r\n---\r\n",
            [("test", "related"), ("pdf-forms", "related")],
        ),
        ("---\nname: x\nrelated_skills: []\n---\ngit\n", []),
        # Only in frontmatter: the same line in a body is prose.
        ("# x\n\nrelated_skills: [git, pdf-forms]\n", [("pdf-forms", "prose")]),
    ],
)
def test_the_related_skills_of_frontmatter(text: str, expected: list[tuple[str, str]]) -> None:
    found = name_mentions(text, NAMES)
    assert [(m.name, m.kind) for m in found] == expected
    for m in found:
        assert text[m.start : m.end] == m.name

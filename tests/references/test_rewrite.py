"""References to folded skills rewritten to the umbrella, each in its form."""

from __future__ import annotations

import pytest

from gitcurator.references.mentions import name_mentions
from gitcurator.references.rewrite import Renames, rewrite_references

RENAMES = Renames(
    names={"pdf-forms": "pdf-tools", "pdf-fill": "pdf-tools"},
    folders={"docs/pdf-forms": "pdf-forms", "docs/pdf-fill": "pdf-fill"},
    home="docs/pdf-tools",
)


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("AGENTS.md", "Use `pdf-forms`.", "Use `pdf-tools`."),
        (
            "AGENTS.md",
            "skill:pdf-fill, /pdf-forms, $pdf-fill",
            "skill:pdf-tools, /pdf-tools, $pdf-tools",
        ),
        ("AGENTS.md", "the pdf-forms skill", "the pdf-tools skill"),
        ("AGENTS.md", "[f](docs/pdf-forms/SKILL.md#x)", "[f](docs/pdf-tools/SKILL.md#x)"),
        ("AGENTS.md", "[f](docs/pdf-forms/)", "[f](docs/pdf-tools/)"),
        ("AGENTS.md", "[f](<docs/pdf-forms>)", "[f](<docs/pdf-tools>)"),
        (
            "docs/other/SKILL.md",
            "[s](../pdf-fill/scripts/fill.py) [r](../pdf-fill/guide.md)",
            "[s](../pdf-tools/scripts/pdf-fill/fill.py) "
            "[r](../pdf-tools/references/pdf-fill/guide.md)",
        ),
        # Untouched: plain words, code blocks, other names, URLs, links elsewhere.
        (
            "AGENTS.md",
            "forms and pdf\n```\n`pdf-forms`\n```\n",
            "forms and pdf\n```\n`pdf-forms`\n```\n",
        ),
        ("AGENTS.md", "`pdf-formsx` https://x/pdf-forms [o](docs/other/SKILL.md)", None),
        # A name inside a URL's query, an address, a package's version or a setting: each
        # would break if rewritten.
        ("AGENTS.md", "See https://example.com/search?q=pdf-forms now.", None),
        ("AGENTS.md", "[f](https://example.com/?skill=pdf-forms&x=1)", None),
        ("AGENTS.md", "<https://example.com/pdf?name=pdf-fill>", None),
        ("AGENTS.md", "Write to pdf-forms@example.com or `npm i pdf-fill@1.2`.", None),
        ("AGENTS.md", "Set mode=pdf-forms or pdf-fill=on.", None),
    ],
)
def test_rewrite(path: str, text: str, expected: str | None) -> None:
    new, done = rewrite_references(text, path, RENAMES)
    assert new == (text if expected is None else expected)
    assert bool(done) == (new != text)


def test_each_rewrite_is_listed_with_its_line_and_a_second_pass_changes_nothing() -> None:
    text = "# Notes\n\nUse `pdf-forms`\nand [it](docs/pdf-fill/SKILL.md).\n"
    new, done = rewrite_references(text, "AGENTS.md", RENAMES)
    assert [d.describe() for d in done] == [
        "AGENTS.md:3 (backticks): pdf-forms -> pdf-tools",
        "AGENTS.md:4 (link): docs/pdf-fill/SKILL.md -> docs/pdf-tools/SKILL.md",
    ]
    assert rewrite_references(new, "AGENTS.md", RENAMES) == (new, [])


def test_a_link_written_with_backslashes_is_found_and_rewritten_with_slashes() -> None:
    text = "[f](..\\pdf-forms\\SKILL.md) and [g](..\\other\\SKILL.md)"
    new, done = rewrite_references(text, "docs/x/SKILL.md", RENAMES)
    assert new == "[f](../pdf-tools/SKILL.md) and [g](..\\other\\SKILL.md)"
    assert [d.kind for d in done] == ["link"]


def test_a_rewritten_link_with_a_space_stays_one_link() -> None:
    renames = Renames(
        names={"my forms": "pdf tools"},
        folders={"docs/my forms": "my forms"},
        home="docs/pdf tools",
    )
    text = "[a](../my%20forms/SKILL.md) [b](<../my forms/guide.md>) [c](../my%20forms/x%281%29.md)"
    new, _ = rewrite_references(text, "docs/x/SKILL.md", renames)
    # A space in a bare destination ends the link: encoded there, as written inside <...>.
    assert new == (
        "[a](../pdf%20tools/SKILL.md) [b](<../pdf tools/references/my forms/guide.md>) "
        "[c](../pdf%20tools/references/my%20forms/x%281%29.md)"
    )


def test_related_skills_in_frontmatter_are_rewritten_in_place() -> None:
    text = "---\nname: other\nrelated_skills: [pdf-forms, other-one, 'pdf-fill']\n---\n\nBody.\n"
    new, done = rewrite_references(text, "docs/other/SKILL.md", RENAMES)
    assert new == text.replace("pdf-forms", "pdf-tools").replace("pdf-fill", "pdf-tools")
    assert [(d.line, d.kind) for d in done] == [(3, "related"), (3, "related")]


def test_another_skill_s_own_name_in_its_frontmatter_is_never_rewritten() -> None:
    # A copied folder still saying `name: pdf-forms`: the fold must not rename it to the
    # umbrella (two skills would then claim pdf-tools); its description is a reference.
    text = "---\nname: pdf-forms\ndescription: A copy of pdf-forms.\n---\n\nname: pdf-forms\n"
    new, done = rewrite_references(text, "docs/pdf-forms-v2/SKILL.md", RENAMES)
    assert new == (
        "---\nname: pdf-forms\ndescription: A copy of pdf-tools.\n---\n\nname: pdf-tools\n"
    )
    assert [d.line for d in done] == [3, 6]


def test_a_one_word_umbrella_is_put_in_backticks_in_prose_so_it_stays_a_reference() -> None:
    renames = Renames(
        names={"pdf-forms": "pdf"}, folders={"docs/pdf-forms": "pdf-forms"}, home="docs/pdf"
    )
    text = (
        "---\nname: other\ndescription: pdf-forms helper\n---\n\nSee pdf-forms and `pdf-forms`.\n"
    )
    new, _ = rewrite_references(text, "docs/other/SKILL.md", renames)
    # In the body a bare `pdf` would be a plain word, no reference for refs or the archive;
    # in frontmatter a backtick cannot start a YAML value, so it stays bare there.
    assert new == "---\nname: other\ndescription: pdf helper\n---\n\nSee `pdf` and `pdf`.\n"
    assert [m.kind for m in name_mentions(new, {"pdf"})] == ["backticks", "backticks"]
    assert rewrite_references(new, "docs/other/SKILL.md", renames) == (new, [])

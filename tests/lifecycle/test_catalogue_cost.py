from __future__ import annotations

import pytest

from gitcurator.lifecycle.catalogue_cost import (
    catalogue_cost,
    catalogue_line,
    estimate_tokens,
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("abcd", 2),  # one word still costs more than a third of a token
        ("abcdefghijkl", 3),
        ("one two three", 4),  # words dominate: 3 words * 4/3
        ("x" * 400, 100),  # characters dominate
    ],
)
def test_estimate_is_the_larger_of_characters_and_words(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


def test_catalogue_line_folds_whitespace_of_a_multiline_description() -> None:
    assert catalogue_line("pdf", "Read PDFs.\n  Fill   forms.") == "- pdf: Read PDFs. Fill forms."


def test_cost_counts_the_joined_lines_with_the_given_counter() -> None:
    seen: list[str] = []

    def count(text: str) -> int:
        seen.append(text)
        return len(text)

    cost = catalogue_cost([("a", "first"), ("b", "second")], count, "chars")
    assert seen == ["- a: first\n- b: second"]
    assert cost.as_doc() == {"skills": 2, "tokens": 22, "tokenizer": "chars"}


def test_an_empty_catalogue_costs_nothing() -> None:
    assert catalogue_cost([]).tokens == 0


def test_more_skills_cost_more() -> None:
    one = catalogue_cost([("pdf", "Work with PDF files")])
    two = catalogue_cost([("pdf", "Work with PDF files"), ("docx", "Work with Word files")])
    assert two.tokens > one.tokens

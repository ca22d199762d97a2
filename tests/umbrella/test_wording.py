"""The wording model the clusters, the near-duplicate guard and retention share."""

from __future__ import annotations

import math

import pytest

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.wording import (
    BODY_CHARS,
    boilerplate_df,
    centroid,
    excerpt,
    idf,
    name_tokens,
    skill_text,
    spellings,
    tfidf_vectors,
    top_words,
    weighted,
    word_counts,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Extract the tables from PDF files", {"extract": 1, "table": 1, "pdf": 1, "file": 1}),
        ("Use it when the user asks", {}),
        ("a 2024 v2 of it", {}),
        ("Classes, boxes, batches, queries", {"class": 1, "box": 1, "batch": 1, "query": 1}),
        ("Kubernetes kubernetes KUBERNETES", {"kubernete": 3}),
    ],
)
def test_word_counts(text: str, expected: dict[str, int]) -> None:
    assert dict(word_counts(text)) == expected


def test_the_memo_remembers_each_token_and_its_word() -> None:
    memo: dict[str, str | None] = {}
    word_counts("Tables and the tables", memo)
    assert memo == {"tables": "table", "and": None, "the": None}
    assert spellings(memo) == {"table": "tables"}


def test_name_tokens_skip_empty_parts() -> None:
    assert name_tokens("pdf--extract-tables-") == ["pdf", "extract", "tables"]


def test_skill_text_counts_the_description_twice_and_the_body_start_once() -> None:
    body = "word " * (BODY_CHARS // 5) + "tail"
    skill = Candidate("pdf-tools", "pdf-tools", "Read PDFs.", body)
    text = skill_text(skill)
    assert text.count("Read PDFs.") == 2
    assert text.startswith("pdf tools ")
    assert text.endswith("word ") and "tail" not in text


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        pytest.param("always search schemas", 9, "always ", id="mid-word-drops-the-fragment"),
        pytest.param("always search", 6, "always", id="cut-at-the-word-end"),
        pytest.param("always search", 7, "always ", id="cut-after-a-space"),
        pytest.param("RUBE_SEARCH_TOOLS", 7, "RUBE_", id="underscore-separates-words"),
        pytest.param("short", 2000, "short", id="short-text-whole"),
        pytest.param("x" * 3000, 2000, "", id="one-long-word-is-no-fragment"),
    ],
)
def test_excerpt_is_cut_at_a_word_boundary(text: str, limit: int, expected: str) -> None:
    assert excerpt(text, limit) == expected


def test_two_bodies_cut_inside_one_word_do_not_share_the_fragment() -> None:
    # Cut at 2,000 characters, `always` became `alw` in both: a rare word, shared by accident.
    a = "a" * 1995 + " always"
    b = "b" * 1995 + " always"
    ca, cb = word_counts(excerpt(a)), word_counts(excerpt(b))
    assert "alw" not in ca and "alw" not in cb


def test_idf_leaves_boilerplate_out_and_weighs_rare_words_more() -> None:
    n = 400
    weights = idf({"common": boilerplate_df(n) + 1, "shared": 20, "rare": 1}, n)
    assert "common" not in weights
    assert weights["rare"] > weights["shared"] > 1
    assert boilerplate_df(10) == 24 and boilerplate_df(400) == 100


def test_vectors_are_unit_length_and_built_from_counts_alike() -> None:
    texts = ["pdf tables extract", "pdf images extract", "sourdough starter"]
    vectors = tfidf_vectors(texts)
    for vector in vectors:
        assert math.isclose(sum(v * v for v in vector.values()), 1.0)
    counts = [word_counts(t) for t in texts]
    df = {w: sum(w in c for c in counts) for c in counts for w in c}
    assert [weighted(c, idf(df, len(texts))) for c in counts] == vectors


def test_centroid_and_top_words() -> None:
    a, b = {"pdf": 0.8, "table": 0.6}, {"pdf": 0.6, "image": 0.8}
    assert top_words(a, b) == ("pdf",)
    mid = centroid([a, b])
    assert math.isclose(sum(v * v for v in mid.values()), 1.0)
    assert max(mid, key=mid.__getitem__) == "pdf"

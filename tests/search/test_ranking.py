"""search.ranking: the wording model of `clusters` ranks skills against a few words, and its
text form ranks exactly as the index it was written from."""

from __future__ import annotations

import pytest

from gitcurator.search.ranking import WordIndex
from gitcurator.umbrella.candidates import Candidate

SKILLS = [
    Candidate("pdf-extract-tables", "a", "Extract tables from PDF files.", "Use pdfplumber."),
    Candidate("pdf-merge", "b", "Merge several PDF files into one.", "Use pypdf."),
    Candidate("k8s-debug-oom", "c", "Debug OOM kills of Kubernetes pods.", "kubectl describe."),
    Candidate("sourdough", "d", "Feed a sourdough starter.", "Flour and water."),
    Candidate("csv-clean", ".archive/csv-clean", "Clean messy CSV tables.", "Use pandas."),
    Candidate("helm-deploy", "e", "Deploy charts to Kubernetes with Helm.", "helm upgrade."),
]
ARCHIVED = frozenset({".archive/csv-clean"})


@pytest.mark.parametrize(
    ("query", "archived", "expected"),
    [
        ("tables in a pdf", False, ["pdf-extract-tables", "pdf-merge"]),
        ("tables in a pdf", True, ["pdf-extract-tables", "pdf-merge", "csv-clean"]),
        ("pods killed", False, ["k8s-debug-oom"]),
        ("kubernetes", False, ["helm-deploy", "k8s-debug-oom"]),
        ("messy csv", False, []),
        ("messy csv", True, ["csv-clean"]),
        ("merge pdf files", False, ["pdf-merge", "pdf-extract-tables"]),
        ("the and of", True, []),
        ("bread starter", False, ["sourdough"]),
    ],
)
def test_the_ranking_of_a_fixture_library(query: str, archived: bool, expected: list[str]) -> None:
    index = WordIndex(SKILLS, ARCHIVED)
    found = index.search(query, 10, archived=archived)
    assert [h.name for h in found] == expected
    scores = [h.score for h in found]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    assert [h.archived for h in found] == [h.folder in ARCHIVED for h in found]


def test_the_limit_holds_and_stop_words_are_no_query() -> None:
    index = WordIndex(SKILLS)
    assert len(index.search("pdf", 1)) == 1
    assert index.query_words("the and of") == []


def test_the_text_form_ranks_exactly_as_the_index() -> None:
    index = WordIndex(SKILLS, ARCHIVED)
    back = WordIndex.from_text(index.to_text("k"), "k")
    assert back is not None and back.size == len(SKILLS)
    for query in ("tables in a pdf", "kubernetes pods", "sourdough", "csv"):
        assert back.search(query, 10, archived=True) == index.search(query, 10, archived=True)


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t.replace("pdf", "pdq"),  # an edit after the header
        lambda t: t[: len(t) // 2],  # cut short
        lambda t: "not json\n" + t,
        lambda t: t.replace('"format": 1', '"format": 99'),
        lambda t: "",
    ],
)
def test_a_damaged_text_is_not_read(damage: object) -> None:
    text = WordIndex(SKILLS).to_text("k")
    assert callable(damage)
    assert WordIndex.from_text(damage(text), "k") is None
    assert WordIndex.from_text(text, "other key") is None


def test_a_forged_cache_with_a_right_digest_cannot_crash_a_search() -> None:
    import hashlib
    import json

    text = WordIndex(SKILLS, ARCHIVED).to_text("k")
    _, _, rest = text.partition("\n")
    skills_line, _, words = rest.partition("\n")
    forged_rows = json.loads(skills_line)
    forged_rows[0] = 7  # pdf-extract-tables' row: not a row at all
    forged_rows[1] = ["pdf-merge", "b", None, False]
    body = json.dumps(forged_rows) + "\n" + words
    digest = hashlib.sha256(body.encode()).hexdigest()
    header = json.dumps({"format": 1, "key": "k", "digest": digest})
    forged = WordIndex.from_text(header + "\n" + body, "k")
    assert forged is not None
    assert forged.search("tables in a pdf", 10, archived=True) == [
        h
        for h in WordIndex(SKILLS, ARCHIVED).search("tables in a pdf", 10, archived=True)
        if h.name not in ("pdf-extract-tables", "pdf-merge")
    ]

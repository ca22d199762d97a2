"""list_skills(query): the wording model of `clusters` ranks skills against a few words."""

from __future__ import annotations

from gitcurator.mcp.ranking import WordIndex
from gitcurator.umbrella.candidates import Candidate

SKILLS = [
    Candidate("pdf-extract-tables", "a", "Extract tables from PDF files.", "Use pdfplumber."),
    Candidate("pdf-merge", "b", "Merge several PDF files into one.", "Use pypdf."),
    Candidate("k8s-debug-oom", "c", "Debug OOM kills of Kubernetes pods.", "kubectl describe."),
    Candidate("sourdough", "d", "Feed a sourdough starter.", "Flour and water."),
]


def test_the_best_match_comes_first_and_unrelated_skills_not_at_all() -> None:
    found = WordIndex(SKILLS).search("tables in a pdf", 10)
    assert [name for name, _ in found] == ["pdf-extract-tables", "pdf-merge"]
    assert found[0][1] > found[1][1] > 0


def test_plurals_fold_and_the_limit_holds() -> None:
    index = WordIndex(SKILLS)
    assert [n for n, _ in index.search("pods killed", 10)] == ["k8s-debug-oom"]
    assert len(index.search("pdf", 1)) == 1


def test_a_query_of_stop_words_matches_nothing() -> None:
    assert WordIndex(SKILLS).search("the and of", 10) == []

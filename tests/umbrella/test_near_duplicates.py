"""The near-duplicate guard's scoring (pure): reworded copies found, siblings left alone."""

from __future__ import annotations

import math

import pytest
from support.similar_skills import SKILLS

from gitcurator.skills.document import parse_skill_md
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.near_duplicates import (
    SIMILAR_THRESHOLD,
    Match,
    Profile,
    description_key,
    find_similar,
    profile,
    refusal,
)
from gitcurator.umbrella.wording import skill_text, tfidf_vectors

# Realistic skills: a family of PDF siblings and a reworded copy of one of them.
LIBRARY = ("pdf-extract-tables", "pdf-merge", "pdf-extract-images")


def skill(name: str) -> Candidate:
    doc = parse_skill_md(SKILLS[name].encode())
    return Candidate(name, name, doc.description or "", doc.body)


def library(*names: str) -> list[Profile]:
    return [profile(skill(n)) for n in names or LIBRARY]


def scores(new: Candidate, existing: list[Profile]) -> dict[str, float]:
    return {m.existing: m.score for m in find_similar([new], existing, threshold=0.0)}


def test_a_reworded_copy_is_found_with_its_score_and_shared_words() -> None:
    [match] = find_similar([skill("pdf-table-extraction")], library())
    assert match.new == "pdf-table-extraction" and match.existing == "pdf-extract-tables"
    assert 0.65 <= match.score < 0.8  # a real rewording: most sentences say it differently
    assert match.words == ("table", "pdf", "camelot")
    assert not match.same_description
    assert match.reason() == "pdf-extract-tables (similarity 0.70: table, pdf, camelot)"


@pytest.mark.parametrize(
    ("new", "others"),
    [
        ("pdf-merge", ("pdf-extract-tables", "pdf-extract-images")),
        ("pdf-extract-images", ("pdf-extract-tables", "pdf-merge")),
        ("pdf-extract-tables", ("pdf-extract-images", "pdf-merge")),
    ],
)
def test_siblings_on_another_subtopic_are_not_flagged(new: str, others: tuple[str, ...]) -> None:
    found = scores(skill(new), library(*others))
    assert max(found.values()) < 0.3 < SIMILAR_THRESHOLD, found


def test_a_copy_under_another_name_is_found_by_wording_and_by_description() -> None:
    copy = Candidate("tables-again", "x", skill("pdf-extract-tables").description, "")
    [match] = find_similar([copy], library())
    assert match.existing == "pdf-extract-tables" and match.same_description
    assert match.reason().startswith("pdf-extract-tables (the same description, similarity")
    same = skill("pdf-extract-tables")
    renamed = Candidate("other-name", "x", same.description, same.body)
    assert scores(renamed, library())["pdf-extract-tables"] > 0.95


def test_scores_grow_with_the_words_shared() -> None:
    base = skill("pdf-extract-tables")
    lines = base.body.splitlines()
    previous = -1.0
    for keep in range(0, len(lines) + 1, 2):
        partial = Candidate("partial", "x", "", "\n".join(lines[:keep]))
        score = scores(partial, library()).get("pdf-extract-tables", 0.0)
        assert score >= previous, (keep, score, previous)
        previous = score
    assert previous > 0.8


def test_descriptions_differing_in_case_and_punctuation_are_the_same() -> None:
    assert description_key("Merge PDFs, keeping bookmarks.") == description_key(
        "merge  pdfs keeping BOOKMARKS"
    )
    assert description_key("") == ""


def test_an_empty_description_matches_nothing_by_description() -> None:
    existing = [profile(Candidate("alpha", "a", "", "kubernetes helm charts"))]
    new = Candidate("omega", "o", "", "sourdough bread baking")
    assert find_similar([new], existing) == []


def test_vectors_are_clusters_tfidf_vectors() -> None:
    """The guard weighs words exactly as the clusters do, though it starts from counts."""
    names = [*LIBRARY, "pdf-table-extraction"]
    vectors = tfidf_vectors([skill_text(skill(n)) for n in names])
    existing = library()
    found = scores(skill("pdf-table-extraction"), existing)
    for name, vector in zip(LIBRARY, vectors, strict=False):
        expected = sum(w * vectors[-1].get(word, 0.0) for word, w in vector.items())
        assert found.get(name, 0.0) == pytest.approx(expected, abs=1e-4)


def test_a_large_library_is_searched_through_telling_words_only() -> None:
    # 600 skills share "deploy" (held by more than 200 skills, it makes no candidates alone);
    # the copy is still found, and nothing else scores.
    filler = [
        profile(Candidate(f"deploy-{i}", "x", f"Deploy service {i} widget{i}", f"gizmo{i} deploy"))
        for i in range(600)
    ]
    found = find_similar([skill("pdf-table-extraction")], [*filler, *library()])
    assert [m.existing for m in found] == ["pdf-extract-tables"]
    assert find_similar([skill("pdf-table-extraction")], filler) == []


def test_a_new_skill_of_common_words_only_is_still_compared() -> None:
    # Every word is held by many skills, so the bound says a match may hide there: all scored.
    many = [profile(Candidate(f"s{i}", "x", "deploy service", f"word{i % 3}")) for i in range(300)]
    found = find_similar([Candidate("new", "x", "Deploy service!", "")], many)
    assert len(found) == 300 and all(m.same_description for m in found)


def test_matches_are_ordered_by_new_skill_then_score() -> None:
    merge = Candidate("merge-pdfs", "x", skill("pdf-merge").description, "")
    new = [skill("pdf-table-extraction"), merge]
    found = find_similar(new, library(), threshold=0.1)
    assert [m.new for m in found] == sorted((m.new for m in found), key=[c.name for c in new].index)
    firsts = [m for m in found if m.new == "pdf-table-extraction"]
    assert [m.score for m in firsts] == sorted((m.score for m in firsts), reverse=True)


def test_refusal_names_at_most_three_per_new_skill() -> None:
    matches = [Match("new", f"old-{i}", 0.9 - i / 100, ("a",)) for i in range(5)]
    [line] = refusal(matches)
    assert line.startswith("new skill new is very similar to old-0 (similarity 0.90: a) and")
    assert "old-2" in line and "old-3" not in line and line.endswith("(and 2 more)")


def test_a_skill_compared_with_itself_scores_one() -> None:
    me = skill("pdf-merge")
    assert math.isclose(scores(me, library("pdf-merge"))["pdf-merge"], 1.0, abs_tol=1e-3)


# -- generated libraries ------------------------------------------------------------------------

APPS = "zerobounce kickbox ticktick brightpearl placid tomba nango bugsnag ynab adrapid".split()  # noqa: SIM905
TEMPLATE = "Always search tools first for current schemas before running a workflow. "


def generated(name: str, copies: int = 60) -> Candidate:
    """A skill of a generated library: one template for every app, only the name changed."""
    return Candidate(
        name, "x", f"Automate {name} tasks via Rube MCP.", f"# {name}\n\n" + TEMPLATE * copies
    )


def test_template_skills_are_not_copies_of_each_other_by_their_names() -> None:
    # Forty apps: the template is the library's boilerplate, and what is left of each skill is
    # its name. `all-images-ai` was refused as a copy of `html-to-image` (0.68, on `images`).
    library = [generated(f"{app}{k}-automation") for k in range(4) for app in APPS]
    library.append(generated("html-to-image-automation"))
    new = generated("all-images-ai-automation")
    assert find_similar([new], [profile(c) for c in library], threshold=0.3) == []


def test_sharing_one_or_two_words_is_no_copy() -> None:
    existing = [profile(Candidate("mails-so", "x", "Mail.", "mail"))]
    new = Candidate("agent-mail", "x", "mail", "Mail!!")
    [match] = find_similar([new], existing, threshold=0.0)  # same description: still matched
    assert match.same_description
    other = Candidate("agent-mails", "x", "Post mail", "")
    assert find_similar([other], existing) == []  # cosine 1.00 on `mail` alone

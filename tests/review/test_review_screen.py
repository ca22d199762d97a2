"""The screen (pure): long lists are cut with a pointer to the whole, and a merged pass says
how to undo it rather than how to merge it."""

from __future__ import annotations

from support.review_passes import make_review

from gitcurator.review.markdown import pull_request
from gitcurator.review.model import Folded, Moved, Restored, UmbrellaReview
from gitcurator.review.screen import SHOWN, review_text
from gitcurator.review.stored import pass_review


def test_a_long_list_is_cut_and_says_where_the_rest_is() -> None:
    many = tuple(Moved(f"s{i}", f"s{i}", "idle", "unknown", None) for i in range(SHOWN + 7))
    text = review_text(make_review(stale=many))
    assert f"stale ({SHOWN + 7})" in text
    assert f"  s{SHOWN - 1} (s{SHOWN - 1})" in text and f"  s{SHOWN} (s{SHOWN})" not in text
    assert "and 7 more (--json lists them all)" in text
    # A reason that does not name the last activity gets it said.
    assert "    idle; last activity unknown" in text


def test_a_merged_pass_says_how_to_undo_it() -> None:
    text = review_text(make_review(status="merged"))
    assert "undo it with `gitcurator rollback 20260301-000000`" in text
    assert "gitcurator merge" not in text


def test_without_catalogue_figures_it_says_so() -> None:
    text = review_text(make_review(catalogue_before=None))
    assert "catalogue: not known" in text


def test_a_newline_in_stored_text_cannot_forge_a_line_of_the_screen() -> None:
    forged = "idle\n\nrefused (0)\naccept: `gitcurator merge`"
    umbrella = UmbrellaReview("u\nv", "p", False, "why\nnot", None, (Folded("s\nt", None),))
    text = review_text(
        make_review(
            archived=(Moved("a\nb", "x\ny", forged, "unknown", None),),
            umbrellas=(umbrella,),
            refused=(("w\nx", "r\ny"),),
        )
    )
    assert "\nrefused (0)" not in text and "\naccept: `gitcurator merge`" not in text
    assert "  a\\x0ab (x\\x0ay)\n    idle\\x0a\\x0arefused (0)\\x0aaccept:" in text
    assert "  u\\x0av (new p): why\\x0anot\n    absorbs: s\\x0at" in text
    assert "  w\\x0ax: r\\x0ay" in text


def test_long_umbrella_and_refused_lists_and_long_text_are_cut() -> None:
    folded = tuple(Folded(f"s{i}", None) for i in range(SHOWN + 4))
    umbrellas = tuple(
        UmbrellaReview(f"u{i}", f"u{i}", False, "r" * 5000, None, folded) for i in range(SHOWN + 2)
    )
    refused = tuple((f"w{i}", "no") for i in range(SHOWN + 1))
    text = review_text(make_review(umbrellas=umbrellas, refused=refused))
    assert f"  u{SHOWN - 1} (new" in text and f"  u{SHOWN} (new" not in text
    assert f"  w{SHOWN - 1}: no" in text and f"  w{SHOWN}: no" not in text
    assert "and 2 more (--json" in text and "and 1 more (--json" in text
    assert f"s{SHOWN - 1} and 4 more" in text
    assert "r" * 5000 not in text and max(map(len, text.splitlines())) < 400


def test_a_report_naming_thousands_of_states_shows_the_first_of_them() -> None:
    states = {f"state{i:04}": 1 for i in range(5000)}
    text = review_text(make_review(counts_before=states, counts_after={}))
    assert "  state0019" in text and "  state0020" not in text
    assert "and 4980 more (--json lists them all)" in text


def test_kept_and_proposed_back_skills_are_shown_with_their_reasons() -> None:
    kept = (("pdf-ocr", "idle 128 days, but referred to by AGENTS.md:3"),)
    back = (Restored("csv-tools", ".archive/csv-tools", "csv-tools", "wanted 3 times"),)
    review = make_review(kept=kept, restores=back)
    text = review_text(review)
    assert "kept, referred to (1)\n  pdf-ocr: idle 128 days, but referred to by AGENTS.md:3" in text
    assert (
        "proposed back (1), restored on merge\n  csv-tools (.archive/csv-tools → csv-tools)" in text
    )
    described = pull_request(review)
    assert "## Kept: referred to (1)" in described and "## Proposed back (1)" in described
    assert "restore 1 (run" in described.splitlines()[0]
    doc = review.to_json()
    assert doc["kept"] == [{"skill": "pdf-ocr", "reason": kept[0][1]}]
    assert doc["restores"][0] == {
        "skill": "csv-tools",
        "from": ".archive/csv-tools",
        "to": "csv-tools",
        "reason": "wanted 3 times",
    }


def test_kept_and_restores_are_read_from_run_json() -> None:
    review = pass_review(
        {
            "run_id": "20260301-000000",
            "now": "2026-03-01T00:00:00Z",
            "counts": {"before": {}, "after": {}},
            "transitions": [],
            "kept": [{"skill": "a", "reason": "referred to", "referrers": ["b/SKILL.md:1"]}],
            "restores": [{"skill": "c", "from": ".archive/c", "to": "c", "reason": "wanted"}],
        },
        branch="curator/20260301-000000",
        status="pending review",
        base=None,
        tip="0" * 40,
        catalogue=None,
    )
    assert review.kept == (("a", "referred to"),)
    assert review.restores == (Restored("c", ".archive/c", "c", "wanted"),)

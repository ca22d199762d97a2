"""The screen (pure): long lists are cut with a pointer to the whole, and a merged pass says
how to undo it rather than how to merge it."""

from __future__ import annotations

from support.review_passes import make_review

from gitcurator.review.model import Moved
from gitcurator.review.screen import SHOWN, review_text


def test_a_long_list_is_cut_and_says_where_the_rest_is() -> None:
    many = tuple(Moved(f"s{i}", f"s{i}", "idle", "unknown", None) for i in range(SHOWN + 7))
    text = review_text(make_review(stale=many))
    assert f"stale ({SHOWN + 7})" in text
    assert f"  s{SHOWN - 1} (s{SHOWN - 1})" in text and f"  s{SHOWN} (s{SHOWN})" not in text
    assert "and 7 more (--json and --markdown list them all)" in text
    # A reason that does not name the last activity gets it said.
    assert "    idle; last activity unknown" in text


def test_a_merged_pass_says_how_to_undo_it() -> None:
    text = review_text(make_review(status="merged"))
    assert "undo it with `gitcurator rollback 20260301-000000`" in text
    assert "gitcurator merge" not in text


def test_without_catalogue_figures_it_says_so() -> None:
    text = review_text(make_review(catalogue_before=None))
    assert "catalogue: not known" in text

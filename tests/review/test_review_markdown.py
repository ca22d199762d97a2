"""The pull-request description (pure): its title says what the pass does, and what a skill's
name or a reason holds cannot break a table row."""

from __future__ import annotations

from support.review_passes import make_review

from gitcurator.review.markdown import pull_request, title
from gitcurator.review.model import Moved


def test_the_title_names_what_moves() -> None:
    assert title(make_review()) == "curator: archive 1 (run 20260301-000000)"
    assert title(make_review(archived=())) == "curator: no changes (run 20260301-000000)"


def test_a_pipe_or_newline_stays_inside_its_cell() -> None:
    text = pull_request(make_review())
    [row] = [line for line in text.splitlines() if line.startswith("| a\\|")]
    assert row.startswith("| a\\|b | `x/a\\|b` → `.archive/x/a\\|b` | unknown | idle \\| 9 days |")
    assert "2 skills, 100 tokens → 1 skill, 40 tokens (-60, -60%; estimate)" in text


def test_a_long_table_is_cut_with_where_the_rest_is() -> None:
    many = tuple(Moved(f"s{i}", f"s{i}", "idle", "unknown", f".archive/s{i}") for i in range(250))
    text = pull_request(make_review(archived=many))
    assert "| s99 |" in text and "| s100 |" not in text
    assert "…and 150 more: the branch's REPORT.md lists them all." in text
    assert len(text) < 65_536

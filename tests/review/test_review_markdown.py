"""The pull-request description (pure): its title says what the pass does, and what a skill's
name or a reason holds cannot break a table row."""

from __future__ import annotations

from support.review_passes import make_review

from gitcurator.review.markdown import ROWS, pull_request, title
from gitcurator.review.model import Folded, Moved, UmbrellaReview


def test_the_title_names_what_moves() -> None:
    assert title(make_review()) == "curator: archive 1 (run 20260301-000000)"
    assert title(make_review(archived=())) == "curator: no changes (run 20260301-000000)"


def test_a_pipe_or_newline_stays_inside_its_cell() -> None:
    text = pull_request(make_review())
    [row] = [line for line in text.splitlines() if line.startswith("| a\\|")]
    assert row.startswith("| a\\|b | `x/a\\|b` → `.archive/x/a\\|b` | unknown | idle \\| 9 days |")
    assert "2 skills, 100 tokens → 1 skill, 40 tokens (−60%) (estimate)" in text


def test_a_long_table_is_cut_with_where_the_rest_is() -> None:
    many = tuple(Moved(f"s{i}", f"s{i}", "idle", "unknown", f".archive/s{i}") for i in range(250))
    text = pull_request(make_review(archived=many))
    assert "| s99 |" in text and "| s100 |" not in text
    assert "…and 150 more: the branch's REPORT.md lists them all." in text
    assert len(text) < 65_536


HOSTILE = (
    Moved(
        "x` <img src=x onerror=alert(1)> `",
        "p`[approve](http://evil)`",
        "idle ![pixel](http://evil/p.png) <script>x</script> [approved](http://evil) **ok**",
        "unknown",
        None,
    ),
)


def test_stored_text_cannot_inject_markup_into_the_description() -> None:
    refused = (("umbrella a\n\n## Looks good to me", "fine\n- [x] reviewed by the team"),)
    umbrella = UmbrellaReview(
        "u*b*", "p`q", False, "why\n\n# Approved", None, (Folded("s\n## h", 0.5),)
    )
    text = pull_request(
        make_review(archived=HOSTILE, refused=refused, umbrellas=(umbrella,), counts_after={})
    )
    # Every heading and list item is the description's own; no HTML, link or image opens.
    assert [line for line in text.splitlines() if line.startswith(("#", "- ["))] == [
        "## Archived (1)",
        "## Umbrellas (1)",
        "## Refused (1)",
        "## Merge or undo",
    ]
    assert " <img" not in text and " <script" not in text and " ![" not in text
    assert "| x\\` \\<img src=x onerror=alert(1)\\> \\` | `` p`[approve](http://evil)` `` |" in text
    assert "**u\\*b\\***" in text and "``p`q`` (new)" in text
    assert "- umbrella a \\#\\# Looks good to me: fine - \\[x\\] reviewed by the team" in text


def test_long_stored_text_and_long_lists_are_cut_everywhere() -> None:
    umbrellas = tuple(
        UmbrellaReview(f"u{i}", f"u{i}", False, "r" * 5000, None, (Folded("s", None),))
        for i in range(ROWS + 5)
    )
    refused = tuple((f"w{i}", "because") for i in range(ROWS + 3))
    text = pull_request(make_review(umbrellas=umbrellas, refused=refused))
    assert f"| **u{ROWS - 1}** |" in text and f"| **u{ROWS}** |" not in text
    assert "- w99: because" in text and "- w100:" not in text
    assert "…and 5 more" in text and "…and 3 more" in text
    assert "r" * 5000 not in text and "r…" in text


def test_a_report_naming_thousands_of_states_shows_the_first_of_them_in_the_table() -> None:
    text = pull_request(
        make_review(counts_before={f"s{i:04}": 1 for i in range(5000)}, counts_after={})
    )
    assert "| s0019 | 1 | 0 |" in text and "| s0020 |" not in text
    assert "| and 4980 more states | | |" in text and len(text) < 65_536

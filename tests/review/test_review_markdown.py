"""The pull-request description (pure): its title says what the pass does, and what a skill's
name or a reason holds cannot break a table row."""

from __future__ import annotations

from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.review.markdown import pull_request, title
from gitcurator.review.model import Moved, PassReview


def _review(**extra: object) -> PassReview:
    fields: dict[str, object] = {
        "run_id": "20260301-000000",
        "branch": "curator/20260301-000000",
        "status": "pending review",
        "now": "2026-03-01T00:00:00Z",
        "base": "b" * 40,
        "tip": "t" * 40,
        "counts_before": {"active": 2},
        "counts_after": {"active": 1, "archived": 1},
        "archived": (Moved("a|b", "x/a|b", "idle\n| 9 days", "unknown", ".archive/x/a|b"),),
        "stale": (),
        "reactivated": (),
        "umbrellas": (),
        "refused": (),
        "left_alone": 0,
        "catalogue_before": CatalogueCost(2, 100, "estimate"),
        "catalogue_after": CatalogueCost(1, 40, "estimate"),
    }
    fields.update(extra)
    return PassReview(**fields)  # type: ignore[arg-type]


def test_the_title_names_what_moves() -> None:
    assert title(_review()) == "curator: archive 1 (run 20260301-000000)"
    assert title(_review(archived=())) == "curator: no changes (run 20260301-000000)"


def test_a_pipe_or_newline_stays_inside_its_cell() -> None:
    text = pull_request(_review())
    [row] = [line for line in text.splitlines() if line.startswith("| a\\|")]
    assert row.startswith("| a\\|b | `x/a\\|b` → `.archive/x/a\\|b` | unknown | idle \\| 9 days |")
    assert "2 skills, 100 tokens → 1 skill, 40 tokens (-60, -60%; estimate)" in text

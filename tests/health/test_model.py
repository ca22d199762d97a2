"""The page's data: state points per pass, the pending branch, the umbrella edges, the table."""

from __future__ import annotations

from support.health_pages import NOW, many_rows, page_of, pass_entry, run_doc
from support.skill_rows import skill_row

from gitcurator.audit.trail import PENDING, ROLLED_BACK
from gitcurator.health import svg
from gitcurator.health.model import COLUMNS, PassRecord


def test_one_point_per_pass_then_now_then_the_pending_pass_projected() -> None:
    page = page_of(many_rows(5))
    assert [p.label for p in page.states] == [
        "20261101-090000",
        "20261129-090000",
        "now",
        "if 20261129-090000 merges",
    ]
    assert page.states[0].counts == {"active": 3}
    assert page.states[2].counts == {"active": 3, "stale": 1, "archived": 1}
    assert page.states[-1].projected and page.states[-1].counts == {"active": 2, "archived": 1}


def test_the_pending_summary_lists_what_merging_would_do() -> None:
    doc = run_doc(
        "20261129-090000",
        {"active": 4},
        {"active": 2, "archived": 2},
        transitions=[{"skill": "x", "to": "archived"}, {"skill": "y", "to": "stale"}, "junk"],
        consolidations=[{"umbrella": "pdf-tools", "absorbed": ["pdf-a"], "demoted": ["pdf-b"]}],
        refused=[{"what": "umbrella pdf-all", "reason": "kept too little"}],
        catalogue={"before": {"skills": 4, "tokens": 120}, "after": {"skills": 3, "tokens": 90}},
    )
    entry = pass_entry("20261129-090000", status=PENDING, branch="curator/20261129-090000")
    page = page_of([skill_row()], passes=[PassRecord(entry, doc)])
    pending = page.pending
    assert pending is not None
    assert (pending.archived, pending.stale) == (("x",), ("y",))
    assert pending.umbrellas == (("pdf-tools", ("pdf-a", "pdf-b")),)
    assert pending.refused == ("umbrella pdf-all: kept too little",)
    assert pending.catalogue == ((4, 120), (3, 90))
    assert [(e.absorbed, e.umbrella, e.pending) for e in page.edges] == [
        ("pdf-a", "pdf-tools", True),
        ("pdf-b", "pdf-tools", True),
    ]


def test_a_run_json_of_the_wrong_shape_reads_as_nothing() -> None:
    entry = pass_entry("20261129-090000", status=PENDING, branch="curator/20261129-090000")
    bad = {"counts": {"before": {"active": "many"}}, "transitions": 3, "catalogue": {"before": 7}}
    page = page_of(
        [skill_row()],
        passes=[PassRecord(entry, bad), PassRecord(pass_entry("20261001-090000"), None)],
    )
    assert page.pending is not None and page.pending.catalogue is None
    assert page.pending.before == {} and page.pending.archived == ()
    assert [p.run_id for p in page.passes] == ["20261129-090000", "20261001-090000"]


def test_merged_umbrellas_come_from_the_records_and_passes_keep_their_status() -> None:
    rows = [
        skill_row(name="pdf-a", state="archived", absorbed_into="pdf-tools"),
        skill_row(name="pdf-tools"),
    ]
    passes = [
        PassRecord(
            pass_entry("20261001-090000", status=ROLLED_BACK), run_doc("20261001-090000", {}, {})
        )
    ]
    page = page_of(rows, passes=passes)
    assert [(e.absorbed, e.umbrella, e.pending) for e in page.edges] == [
        ("pdf-a", "pdf-tools", False)
    ]
    assert page.pending is None
    assert page.passes[0].status == ROLLED_BACK


def test_the_table_has_a_row_per_skill_in_column_order() -> None:
    page = page_of(many_rows(12))
    assert len(page.rows) == 12
    assert page.rows[0][:2] == ("skill-00000", "active")
    assert len(page.rows[0]) == len(COLUMNS)
    assert page.generated_at == "2026-11-30T09:00:00Z" and page.skills == 12
    assert page.by_state == {"active": 8, "stale": 2, "archived": 2}
    assert page.catalogue.skills == 10
    assert NOW.year == 2026


def test_a_run_json_count_no_float_holds_is_no_figure() -> None:
    # A 400-digit count once stopped the state chart with an OverflowError (exit 3).
    huge = 10**400
    entry = pass_entry("20261129-090000", status=PENDING, branch="curator/20261129-090000")
    doc = run_doc(
        "20261129-090000",
        {"active": huge, "stale": True},
        {"active": 2},
        catalogue={"before": {"skills": 4, "tokens": huge}, "after": {"skills": 3, "tokens": 9}},
    )
    page = page_of([skill_row()], passes=[PassRecord(entry, doc)])
    assert page.states[0].counts == {} and page.pending is not None
    assert page.pending.catalogue is None
    assert "<svg" in svg.state_chart(page.states)

"""The text merge stays bounded on long files any way rewritten: the diff search spends at most
its work budget (past it the edit script is coarser, never wrong), and git's line set-aside is
answered from counts instead of a scan per line. Timings are in bench/bench_upstream_merge.py."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcurator.upstream import line_diff
from gitcurator.upstream.line_diff import Hunk, diff_lines, split_lines
from gitcurator.upstream.myers_search import WORK_LIMIT, WorkBudget
from gitcurator.upstream.text_merge import merge_text


def patched(a: list[bytes], b: list[bytes], hunks: list[Hunk]) -> list[bytes]:
    out, at = [], 0
    for h in hunks:
        out += a[at : h.a_start] + b[h.b_start : h.b_start + h.b_count]
        at = h.a_start + h.a_count
    return out + a[at:]


texts = st.lists(st.sampled_from([b"a\n", b"b\n", b"c\n", b"\n", b"d\n"]), max_size=80)


@settings(deadline=None)
@given(texts, texts, st.integers(0, 400))
def test_a_spent_budget_still_gives_an_edit_script_that_turns_a_into_b(
    a: list[bytes], b: list[bytes], limit: int
) -> None:
    assert patched(a, b, diff_lines(a, b, WorkBudget(limit))) == b


def test_a_long_file_shuffled_on_both_sides_spends_no_more_than_the_budget() -> None:
    rng = random.Random(3)
    base = [b"line %d\n" % i for i in range(10_000)]
    ours, theirs = list(base), list(base)
    rng.shuffle(ours)
    rng.shuffle(theirs)
    budget = WorkBudget()
    diff_lines(base, ours, budget)
    # Unbounded, this diff alone takes 6 million steps; the merge shares one budget.
    assert -WORK_LIMIT // 100 < budget.left <= 0
    merged = merge_text(b"".join(base), b"".join(ours), b"".join(theirs))
    assert merged.conflicts >= 1
    assert set(ours) <= set(split_lines(merged.content))  # no local line dropped


def scanned(kind: list[int], i: int, first: int, last: int) -> bool:
    """Git's xdl_clean_mmatch as it reads: scan each way up to 100 lines."""

    def run(step: int, bound: int) -> tuple[int, int]:
        unmatched, common, j = 0, 1, i + step
        while (j >= bound) if step < 0 else (j <= bound):
            if kind[j] == 1:
                break
            unmatched, common = unmatched + (kind[j] == 0), common + (kind[j] == 2)
            j += step
        return unmatched, common

    ub, cb = run(-1, max(first, i - 100))
    ua, ca = run(1, min(last, i + 100))
    return bool(ub and ua) and (cb + ca) * 4 < cb + ca + ub + ua


@given(st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=300), st.data())
def test_the_set_aside_test_is_gits_scan(kind: list[int], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(kind) - 1))
    end = data.draw(st.integers(start + 1, len(kind)))
    runs = line_diff._Runs(kind, start, end)
    for i in range(start, end):
        if kind[i] == 2:
            assert runs.amid_unmatched(i) == scanned(kind, i, start, end - 1)

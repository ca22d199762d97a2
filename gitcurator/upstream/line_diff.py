"""A line diff that is git's (xdiff's default Myers diff): the same hunks, placed the same way.

The three-way merge must agree with `git merge-file`, and where a change could be placed in
more than one spot (an inserted line repeating its neighbour) the merge result depends on
where the diff put it. So git's choices are followed step by step: the common ends trimmed,
lines the other file lacks set aside, the rest searched at middle snakes (`myers_search`),
and each run of changed lines slid as far down as it goes unless sliding back lines it up
with a change in the other file (tests/upstream/test_text_merge.py checks against real git).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gitcurator.upstream.myers_search import MiddleSnakeSearch, WorkBudget, bogosqrt

# How git sets lines aside before the search (xdiff's xprepare): a line seen this often
# (at most) in the other file is "very common", and such lines are dropped from a run
# mostly made of unmatched lines, looked at this far around.
MAX_EQUAL_LIMIT = 1024
SCAN_WINDOW = 100
UNMATCHED_RUN = 4


@dataclass(frozen=True, slots=True)
class Hunk:
    """`a_count` lines of A from `a_start` became `b_count` lines of B from `b_start`."""

    a_start: int
    a_count: int
    b_start: int
    b_count: int


def split_lines(data: bytes) -> list[bytes]:
    """Lines as git counts them: each ends after its LF; a last line may have none."""
    lines = data.split(b"\n")
    last = lines.pop()
    found = [line + b"\n" for line in lines]
    if last:
        found.append(last)
    return found


def diff_lines(
    a: Sequence[bytes], b: Sequence[bytes], budget: WorkBudget | None = None
) -> list[Hunk]:
    """The hunks that turn `a` into `b`, in order; past the search `budget`, coarser ones."""
    ids: dict[bytes, int] = {}
    ra = [ids.setdefault(line, len(ids)) for line in a]
    rb = [ids.setdefault(line, len(ids)) for line in b]
    changed_a, changed_b = [False] * len(ra), [False] * len(rb)
    _mark_changes(ra, rb, changed_a, changed_b, budget or WorkBudget())
    _compact(ra, changed_a, changed_b)
    _compact(rb, changed_b, changed_a)
    return _hunks(changed_a, changed_b)


def _mark_changes(
    a: list[int], b: list[int], ca: list[bool], cb: list[bool], budget: WorkBudget
) -> None:
    """Mark the lines of `a` deleted and of `b` inserted, choosing among equally short edit
    scripts as git's Myers diff does: common ends trimmed, lines without a partner (and
    runs of very common lines between them) set aside as changed, the rest split at middle
    snakes."""
    start, lim = 0, min(len(a), len(b))
    while start < lim and a[start] == b[start]:
        start += 1
    tail = 0
    while tail < lim - start and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    kept_a = _kept_lines(a, b, start, len(a) - tail, ca)
    kept_b = _kept_lines(b, a, start, len(b) - tail, cb)
    search = MiddleSnakeSearch([a[i] for i in kept_a], [b[i] for i in kept_b], budget)
    search.compare(0, len(kept_a), 0, len(kept_b), need_min=False)
    for x in search.deleted:
        ca[kept_a[x]] = True
    for y in search.inserted:
        cb[kept_b[y]] = True


def _kept_lines(
    mine: list[int], other: list[int], start: int, end: int, changed: list[bool]
) -> list[int]:
    """The lines of mine[start:end] the search must align; the others are changed already:
    a line the other file lacks, and a line common in both files (seen `_bogosqrt` times)
    inside a run of lines the other file lacks."""
    limit = min(bogosqrt(len(mine)), MAX_EQUAL_LIMIT)
    counts: dict[int, int] = {}
    for line in other:
        counts[line] = counts.get(line, 0) + 1
    kind = [0] * len(mine)  # 0 no partner, 1 some, 2 very common
    for i in range(start, end):
        seen = counts.get(mine[i], 0)
        kind[i] = 0 if seen == 0 else 2 if seen >= limit else 1
    runs = _Runs(kind, start, end)
    kept: list[int] = []
    for i in range(start, end):
        if kind[i] == 1 or (kind[i] == 2 and not runs.amid_unmatched(i)):
            kept.append(i)
        else:
            changed[i] = True
    return kept


class _Runs:
    """Whether a very common line sits in a run made mostly of unmatched lines, as git scans
    it (up to `SCAN_WINDOW` lines each way, stopping at a line with a partner), answered from
    counts made once: scanning for every line was 200 steps a line."""

    def __init__(self, kind: list[int], start: int, end: int) -> None:
        self.start, self.end = start, end
        n = end - start
        self.zeros, self.twos = [0] * (n + 1), [0] * (n + 1)
        self.prev_one, self.next_one = [start - 1] * n, [end] * n
        last = start - 1
        for k in range(n):
            here = kind[start + k]
            self.zeros[k + 1] = self.zeros[k] + (here == 0)
            self.twos[k + 1] = self.twos[k] + (here == 2)
            self.prev_one[k] = last
            if here == 1:
                last = start + k
        after = end
        for k in range(n - 1, -1, -1):
            self.next_one[k] = after
            if kind[start + k] == 1:
                after = start + k

    def amid_unmatched(self, i: int) -> bool:
        """Git's test for the very common line `i` (xdl_clean_mmatch)."""
        k = i - self.start
        first = max(self.start, i - SCAN_WINDOW, self.prev_one[k] + 1)
        unmatched_before, common_before = self._counts(first, i)
        if not unmatched_before:
            return False
        last = min(self.end - 1, i + SCAN_WINDOW, self.next_one[k] - 1)
        unmatched_after, common_after = self._counts(i + 1, last + 1)
        if not unmatched_after:
            return False
        common = common_before + common_after + 2  # the line itself, counted on each side
        return common * UNMATCHED_RUN < common + unmatched_before + unmatched_after

    def _counts(self, lo: int, hi: int) -> tuple[int, int]:
        """Unmatched and very common lines in [lo, hi)."""
        a, b = lo - self.start, max(lo, hi) - self.start
        return self.zeros[b] - self.zeros[a], self.twos[b] - self.twos[a]


def _compact(recs: list[int], rchg: list[bool], other: list[bool]) -> None:
    """Slide each run of changed lines as git does: down as far as it goes, unless sliding
    back up lines it up with a change in the other file."""
    n = len(recs)
    start, end = 0, _run_end(rchg, 0)
    o_start, o_end = 0, _run_end(other, 0)
    while True:
        if end != start:
            while True:
                size = end - start
                matching_end = -1
                while start > 0 and recs[start - 1] == recs[end - 1]:
                    start, end = _slide_up(rchg, start, end)
                    o_start, o_end = _previous_run(other, o_start)
                earliest_end = end
                if o_end > o_start:
                    matching_end = end
                while end < n and recs[start] == recs[end]:
                    rchg[start], rchg[end] = False, True
                    start, end = start + 1, _run_end(rchg, end + 1)
                    o_start = o_end + 1
                    o_end = _run_end(other, o_start)
                    if o_end > o_start:
                        matching_end = end
                if size == end - start:
                    break
            if end != earliest_end and matching_end != -1:
                while o_end == o_start:
                    start, end = _slide_up(rchg, start, end)
                    o_start, o_end = _previous_run(other, o_start)
        if end == n:
            return
        start = end + 1
        end = _run_end(rchg, start)
        o_start = o_end + 1
        o_end = _run_end(other, o_start)


def _run_end(rchg: list[bool], i: int) -> int:
    while i < len(rchg) and rchg[i]:
        i += 1
    return i


def _slide_up(rchg: list[bool], start: int, end: int) -> tuple[int, int]:
    start, end = start - 1, end - 1
    rchg[start], rchg[end] = True, False
    while start > 0 and rchg[start - 1]:
        start -= 1
    return start, end


def _previous_run(rchg: list[bool], start: int) -> tuple[int, int]:
    end = start - 1
    start = end
    while start > 0 and rchg[start - 1]:
        start -= 1
    return start, end


def _hunks(ca: list[bool], cb: list[bool]) -> list[Hunk]:
    found: list[Hunk] = []
    i = j = 0
    while i < len(ca) or j < len(cb):
        if i < len(ca) and j < len(cb) and not ca[i] and not cb[j]:
            i, j = i + 1, j + 1
            continue
        i0, j0 = i, j
        while i < len(ca) and ca[i]:
            i += 1
        while j < len(cb) and cb[j]:
            j += 1
        found.append(Hunk(i0, i - i0, j0, j - j0))
    return found

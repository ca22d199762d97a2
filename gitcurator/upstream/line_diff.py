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

from gitcurator.upstream.myers_search import MiddleSnakeSearch, bogosqrt

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


def diff_lines(a: Sequence[bytes], b: Sequence[bytes]) -> list[Hunk]:
    """The hunks that turn `a` into `b`, in order."""
    ids: dict[bytes, int] = {}
    ra = [ids.setdefault(line, len(ids)) for line in a]
    rb = [ids.setdefault(line, len(ids)) for line in b]
    changed_a, changed_b = [False] * len(ra), [False] * len(rb)
    _mark_changes(ra, rb, changed_a, changed_b)
    _compact(ra, changed_a, changed_b)
    _compact(rb, changed_b, changed_a)
    return _hunks(changed_a, changed_b)


def _mark_changes(a: list[int], b: list[int], ca: list[bool], cb: list[bool]) -> None:
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
    search = MiddleSnakeSearch([a[i] for i in kept_a], [b[i] for i in kept_b])
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
    kept: list[int] = []
    for i in range(start, end):
        if kind[i] == 1 or (kind[i] == 2 and not _amid_unmatched(kind, i, start, end - 1)):
            kept.append(i)
        else:
            changed[i] = True
    return kept


def _amid_unmatched(kind: list[int], i: int, first: int, last: int) -> bool:
    """Whether the very common line `i` sits in a run made mostly of unmatched lines."""
    first, last = max(first, i - SCAN_WINDOW), min(last, i + SCAN_WINDOW)
    unmatched_before, common_before = _run(kind, i, -1, first)
    if not unmatched_before:
        return False
    unmatched_after, common_after = _run(kind, i, 1, last)
    if not unmatched_after:
        return False
    common = common_before + common_after
    return common * UNMATCHED_RUN < common + unmatched_before + unmatched_after


def _run(kind: list[int], i: int, step: int, bound: int) -> tuple[int, int]:
    unmatched, common = 0, 1
    j = i + step
    while (j >= bound) if step < 0 else (j <= bound):
        if kind[j] == 0:
            unmatched += 1
        elif kind[j] == 2:
            common += 1
        else:
            break
        j += step
    return unmatched, common


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

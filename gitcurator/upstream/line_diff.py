"""A line diff shaped like git's (xdiff): a shortest edit script, its hunks slid as git slides.

The three-way merge must agree with `git merge-file`, and where a change could be placed in
more than one spot (an inserted line repeating its neighbour) the merge result depends on
where the diff put it. git places such a hunk as far down as it slides unless it can line up
with a change in the other file; `_compact` does the same, so the hunks here are git's
hunks on the cases that matter (tests/upstream/test_text_merge.py checks against real git).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Beyond this many edits the shortest script costs too much time and memory; the rest of
# the middle becomes one change (git bounds its search the same way, coarsening the diff).
MAX_EDIT_COST = 2000


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
    start, end_a, end_b = 0, len(a), len(b)
    while start < end_a and start < end_b and a[start] == b[start]:
        start += 1
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    path = _shortest_edit(a[start:end_a], b[start:end_b])
    if path is None:
        ca[start:end_a] = [True] * (end_a - start)
        cb[start:end_b] = [True] * (end_b - start)
        return
    deleted, inserted = path
    for x in deleted:
        ca[start + x] = True
    for y in inserted:
        cb[start + y] = True


def _shortest_edit(a: list[int], b: list[int]) -> tuple[list[int], list[int]] | None:
    """Myers' O(ND) search: the lines of `a` deleted and of `b` inserted, or None past the cap."""
    n, m = len(a), len(b)
    if not n or not m:
        return list(range(n)), list(range(m))
    limit = min(n + m, MAX_EDIT_COST)
    offset = limit + 1
    v = [0] * (2 * limit + 3)
    trace: list[list[int]] = []
    for d in range(limit + 1):
        trace.append(v[offset - d - 1 : offset + d + 2])
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]
            else:
                x = v[offset + k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x, y = x + 1, y + 1
            v[offset + k] = x
            if x >= n and y >= m:
                return _backtrack(trace, n, m)
    return None


def _backtrack(trace: list[list[int]], x: int, y: int) -> tuple[list[int], list[int]]:
    deleted: list[int] = []
    inserted: list[int] = []
    for d in range(len(trace) - 1, 0, -1):
        row = trace[d]  # v before step d, indexed from k = -d - 1
        k = x - y

        def at(kk: int, row: list[int] = row, d: int = d) -> int:
            return row[kk + d + 1]

        down = k == -d or (k != d and at(k - 1) < at(k + 1))
        prev_k = k + 1 if down else k - 1
        prev_x = at(prev_k)
        prev_y = prev_x - prev_k
        while x > prev_x and y > prev_y:
            x, y = x - 1, y - 1
        if down:
            inserted.append(prev_y)
        else:
            deleted.append(prev_x)
        x, y = prev_x, prev_y
    return deleted, inserted


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

"""Myers' O(ND) diff as git's xdiff runs it: divide and conquer at middle snakes, bounded.

The edit script must be the one git picks among the equally short ones, or a three-way merge
places hunks differently from `git merge-file`; so the search follows xdiff's order of
diagonals and its tie-breaks, and its bounds: past a cost of about the square root of the
sizes (at least 256) a split takes a long snake far along, or the furthest-reaching point,
instead of the middle snake -- not the shortest script, but git's, in bounded time.

Git's bound still lets a search run in O(N*D) (once a middle snake is found, the halves are
searched for the minimum), which is fine in C and minutes in Python for a long file rewritten
throughout. So the work (diagonals looked at, lines followed along snakes) is counted against
a `WorkBudget`; spent, each split is the furthest point reached and each box left is taken as
changed whole: still a right edit script (a merge only gets coarser conflicts, never loses a
change), no longer git's; a skill's files stay far below the budget.
"""

from __future__ import annotations

MAX_COST_MIN = 256
HEURISTIC_MIN_COST = 256
HEURISTIC_FACTOR = 4
SNAKE_COUNT = 20
LINE_MAX = 2**63 - 1

# About three seconds of this search in CPython (a file of 2,000 lines shuffled throughout); the
# merge of 2,500 lines with 700 edits on each side spends an eighth of it.
WORK_LIMIT = 3_000_000

_Box = tuple[int, int, int, int]  # off1, lim1, off2, lim2: the part of a and b compared
_Reach = tuple[int, int, int, int]  # fmin, fmax, bmin, bmax: the diagonals searched so far
_Split = tuple[int, int, bool, bool]  # where to split, and whether each half needs the minimum


def bogosqrt(n: int) -> int:
    """A power of two near the square root of n, as git estimates it."""
    root = 1
    while n > 0:
        n >>= 2
        root <<= 1
    return root


class WorkBudget:
    """The search work one merge may still spend; shared by the diffs of a merge."""

    def __init__(self, limit: int = WORK_LIMIT) -> None:
        self.left = limit


class MiddleSnakeSearch:
    """The lines of `a` deleted and of `b` inserted, collected by `compare`."""

    def __init__(self, a: list[int], b: list[int], budget: WorkBudget | None = None) -> None:
        self.a, self.b = a, b
        self.budget = budget or WorkBudget()
        self.deleted: list[int] = []
        self.inserted: list[int] = []
        diagonals = len(a) + len(b) + 3
        self.max_cost = max(bogosqrt(diagonals), MAX_COST_MIN)
        self.offset = len(b) + 1
        self.forward = [0] * (2 * diagonals + 2)
        self.backward = [0] * (2 * diagonals + 2)

    def compare(self, off1: int, lim1: int, off2: int, lim2: int, need_min: bool) -> None:
        """Mark the changes between a[off1:lim1] and b[off2:lim2] (a stack, not recursion:
        splits past the cost bound are uneven, and a long file would go too deep)."""
        a, b = self.a, self.b
        boxes = [(off1, lim1, off2, lim2, need_min)]
        while boxes:
            off1, lim1, off2, lim2, need_min = boxes.pop()
            while off1 < lim1 and off2 < lim2 and a[off1] == b[off2]:
                off1, off2 = off1 + 1, off2 + 1
            while off1 < lim1 and off2 < lim2 and a[lim1 - 1] == b[lim2 - 1]:
                lim1, lim2 = lim1 - 1, lim2 - 1
            if off1 == lim1 or off2 == lim2 or self.budget.left <= 0:
                self.deleted.extend(range(off1, lim1))
                self.inserted.extend(range(off2, lim2))
            else:
                before = self.budget.left
                i1, i2, min_lo, min_hi = self._split(off1, lim1, off2, lim2, need_min)
                self.budget.left = min(self.budget.left, before - 1)  # each split costs
                boxes.append((i1, lim1, i2, lim2, min_hi))
                boxes.append((off1, i1, off2, i2, min_lo))

    def _split(self, off1: int, lim1: int, off2: int, lim2: int, need_min: bool) -> _Split:
        a, b, o = self.a, self.b, self.offset
        kf, kb = self.forward, self.backward
        dmin, dmax = off1 - lim2, lim1 - off2
        fmid, bmid = off1 - off2, lim1 - lim2
        odd = (fmid - bmid) & 1
        fmin = fmax = fmid
        bmin = bmax = bmid
        kf[o + fmid] = off1
        kb[o + bmid] = lim1
        cost = 0
        budget = self.budget
        while True:
            cost += 1
            got_snake = False
            budget.left -= fmax - fmin + 2  # the diagonals this round looks at, both ways
            if fmin > dmin:
                fmin -= 1
                kf[o + fmin - 1] = -1
            else:
                fmin += 1
            if fmax < dmax:
                fmax += 1
                kf[o + fmax + 1] = -1
            else:
                fmax -= 1
            for d in range(fmax, fmin - 1, -2):
                i1 = kf[o + d - 1] + 1 if kf[o + d - 1] >= kf[o + d + 1] else kf[o + d + 1]
                before = i1
                i2 = i1 - d
                while i1 < lim1 and i2 < lim2 and a[i1] == b[i2]:
                    i1, i2 = i1 + 1, i2 + 1
                if i1 - before > SNAKE_COUNT:
                    got_snake = True
                budget.left -= i1 - before
                kf[o + d] = i1
                if odd and bmin <= d <= bmax and kb[o + d] <= i1:
                    return i1, i2, True, True
            if bmin > dmin:
                bmin -= 1
                kb[o + bmin - 1] = LINE_MAX
            else:
                bmin += 1
            if bmax < dmax:
                bmax += 1
                kb[o + bmax + 1] = LINE_MAX
            else:
                bmax -= 1
            for d in range(bmax, bmin - 1, -2):
                i1 = kb[o + d - 1] if kb[o + d - 1] < kb[o + d + 1] else kb[o + d + 1] - 1
                before = i1
                i2 = i1 - d
                while i1 > off1 and i2 > off2 and a[i1 - 1] == b[i2 - 1]:
                    i1, i2 = i1 - 1, i2 - 1
                if before - i1 > SNAKE_COUNT:
                    got_snake = True
                budget.left -= before - i1
                kb[o + d] = i1
                if not odd and fmin <= d <= fmax and i1 <= kf[o + d]:
                    return i1, i2, True, True
            box, reach = (off1, lim1, off2, lim2), (fmin, fmax, bmin, bmax)
            if budget.left <= 0:
                return self._furthest(box, reach)
            if need_min:
                continue
            if got_snake and cost > HEURISTIC_MIN_COST:
                found = self._good_snake(box, reach, cost)
                if found is not None:
                    return found
            if cost >= self.max_cost:
                return self._furthest(box, reach)

    def _good_snake(self, box: _Box, reach: _Reach, cost: int) -> _Split | None:
        """Past the heuristic cost, a long snake far along a diagonal is taken as the split."""
        a, b, o = self.a, self.b, self.offset
        off1, lim1, off2, lim2 = box
        fmin, fmax, bmin, bmax = reach
        fmid, bmid = off1 - off2, lim1 - lim2
        best, point = 0, (0, 0)
        for d in range(fmax, fmin - 1, -2):
            i1 = self.forward[o + d]
            i2 = i1 - d
            value = (i1 - off1) + (i2 - off2) - abs(d - fmid)
            if (
                value > HEURISTIC_FACTOR * cost
                and value > best
                and off1 + SNAKE_COUNT <= i1 < lim1
                and off2 + SNAKE_COUNT <= i2 < lim2
                and all(a[i1 - k] == b[i2 - k] for k in range(1, SNAKE_COUNT + 1))
            ):
                best, point = value, (i1, i2)
        if best > 0:
            return point[0], point[1], True, False
        for d in range(bmax, bmin - 1, -2):
            i1 = self.backward[o + d]
            i2 = i1 - d
            value = (lim1 - i1) + (lim2 - i2) - abs(d - bmid)
            if (
                value > HEURISTIC_FACTOR * cost
                and value > best
                and off1 < i1 <= lim1 - SNAKE_COUNT
                and off2 < i2 <= lim2 - SNAKE_COUNT
                and all(a[i1 + k] == b[i2 + k] for k in range(SNAKE_COUNT))
            ):
                best, point = value, (i1, i2)
        if best > 0:
            return point[0], point[1], False, True
        return None

    def _furthest(self, box: _Box, reach: _Reach) -> _Split:
        """Enough searching: split where the forward or backward paths got furthest."""
        o = self.offset
        off1, lim1, off2, lim2 = box
        fmin, fmax, bmin, bmax = reach
        fbest, fbest1 = -1, -1
        for d in range(fmax, fmin - 1, -2):
            i1 = min(self.forward[o + d], lim1)
            i2 = i1 - d
            if lim2 < i2:
                i1, i2 = lim2 + d, lim2
            if fbest < i1 + i2:
                fbest, fbest1 = i1 + i2, i1
        bbest, bbest1 = LINE_MAX, LINE_MAX
        for d in range(bmax, bmin - 1, -2):
            i1 = max(off1, self.backward[o + d])
            i2 = i1 - d
            if i2 < off2:
                i1, i2 = off2 + d, off2
            if i1 + i2 < bbest:
                bbest, bbest1 = i1 + i2, i1
        if (lim1 + lim2) - bbest < fbest - (off1 + off2):
            return fbest1, fbest - fbest1, True, False
        return bbest1, bbest - bbest1, False, True

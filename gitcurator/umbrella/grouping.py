"""Skills joined into groups by average linkage, no group larger than one request (pure).

Start with every skill alone; join the two groups whose members are most alike on average
(the mean score over every pair across them, a pair without a score counting 0), as long as
that mean reaches the threshold and the joined group fits one request. A mean, unlike a
single link, cannot chain look-alikes into one sprawling group: a skill joins a group only by
resembling most of it. Indices are those of the name-sorted skills and ties go to the lowest
indices, so every result is deterministic.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Mapping


def average_linkage(
    n: int,
    scores: Mapping[tuple[int, int], float],
    threshold: float,
    max_size: int,
) -> list[list[int]]:
    """Groups of 0..n-1 (each sorted, sorted by first member) joined while their mean pair
    score reaches `threshold` and the join holds at most `max_size`; `scores` maps (a, b),
    a < b, to a pair's score."""
    members = {i: [i] for i in range(n)}
    # sums[a][b]: the total score between groups a and b (each named by its smallest index).
    sums: dict[int, dict[int, float]] = defaultdict(dict)
    for (a, b), score in scores.items():
        sums[a][b] = sums[b][a] = score
    heap = [
        (-mean, a, b)
        for a in members
        for b in sums[a]
        if a < b and (mean := _mean(a, b, sums, members)) >= threshold
    ]
    heapq.heapify(heap)
    while heap:
        negative, a, b = heapq.heappop(heap)
        if a not in members or b not in members or _mean(a, b, sums, members) != -negative:
            continue  # a group joined since, or their mean changed: a newer entry stands
        if len(members[a]) + len(members[b]) > max_size:
            continue  # groups only grow: this pair can never be joined
        _join(a, b, members, sums)
        for c in sums[a]:
            mean = _mean(a, c, sums, members)
            if mean >= threshold:
                heapq.heappush(heap, (-mean, min(a, c), max(a, c)))
    return sorted(members.values())


def _join(a: int, b: int, members: dict[int, list[int]], sums: dict[int, dict[int, float]]) -> None:
    """Group b joins group a (a < b)."""
    members[a] = sorted(members[a] + members.pop(b))
    for c, score in sums.pop(b, {}).items():
        del sums[c][b]
        if c != a:
            sums[a][c] = sums[c][a] = sums[a].get(c, 0.0) + score


def _mean(
    a: int, b: int, sums: Mapping[int, Mapping[int, float]], members: Mapping[int, list[int]]
) -> float:
    return sums[a].get(b, 0.0) / (len(members[a]) * len(members[b]))

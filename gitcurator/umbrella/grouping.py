"""Skills joined into groups by both signals, and groups cut to the size of one request (pure).

Name families and wording links are joined with union-find; a group larger than one request
may hold is split, first by dropping its weakest wording links, then in name order. Indices
are those of the name-sorted skills, so every result is deterministic.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from gitcurator.umbrella.wording_links import WordingLink


class UnionFind:
    """Disjoint sets whose root is always the smallest index: deterministic by construction."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        """The root of `x`'s set."""
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        """Join the sets of `a` and `b`."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def groups(self, members: Iterable[int]) -> list[list[int]]:
        """`members` by set, each sorted, sets in the order of their roots."""
        by_root: dict[int, list[int]] = defaultdict(list)
        for x in sorted(members):
            by_root[self.find(x)].append(x)
        return [g for _, g in sorted(by_root.items())]


def connected(
    n: int,
    families: Mapping[int, str],
    links: Iterable[WordingLink],
    members: Iterable[int] | None = None,
) -> list[list[int]]:
    """Connected groups of the members (all n when none given) under both signals."""
    uf = UnionFind(n)
    first: dict[str, int] = {}
    for i in sorted(families):
        uf.union(first.setdefault(families[i], i), i)
    for link in links:
        uf.union(link.a, link.b)
    return uf.groups(range(n) if members is None else members)


def split(
    group: list[int], families: Mapping[int, str], links: Sequence[WordingLink], max_size: int
) -> list[list[int]]:
    """`group` in parts of at most `max_size`: its weakest wording links are cut first (a loner
    cut loose is left out), and a part that is still too big is cut in name order."""
    inside = set(group)
    pending = [(group, [x for x in links if x.a in inside and x.b in inside])]
    done: list[list[int]] = []
    while pending:
        part, own = pending.pop()
        if len(part) <= max_size:
            done.append(part)
            continue
        weakest = min((x.score for x in own), default=None)
        kept = [x for x in own if weakest is not None and x.score > weakest]
        own_families = {i: families[i] for i in part if i in families}
        pieces = connected(max(part) + 1, own_families, kept, part) if own else []
        if all(len(piece) < 2 for piece in pieces):
            # No wording link to cut, or cutting leaves nothing together: name order decides.
            done.extend(chunks(part, max_size))
            continue
        for piece in pieces:
            members = set(piece)
            pending.append((piece, [x for x in kept if x.a in members]))
    return sorted(done)


def chunks(group: list[int], max_size: int) -> list[list[int]]:
    """Near-equal parts in name order (indices are name-sorted), so no part is a lone skill."""
    count = math.ceil(len(group) / max_size)
    size, extra = divmod(len(group), count)
    parts, start = [], 0
    for k in range(count):
        end = start + size + (1 if k < extra else 0)
        parts.append(group[start:end])
        start = end
    return parts

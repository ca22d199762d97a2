"""Which files upstream renamed: a path gone and a path new whose contents match or resemble.

Like git's rename detection: exact matches first, then pairs at least half similar, the most
similar first, each path in one pair at most. Similarity is git's measure in spirit: the
bytes of the lines the two files share (counted with repeats), over the larger file's size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

MIN_SIMILARITY = 0.5
# As git's rename limit: past this many (gone, new) pairs only exact renames are looked for,
# so a source that moves thousands of files cannot make the merge compare every pair.
RENAME_PAIR_LIMIT = 100_000


def find_renames(gone: Mapping[str, bytes], new: Mapping[str, bytes]) -> list[tuple[str, str]]:
    """(old path, new path) pairs, by old path; empty files are never taken for renames."""
    pairs: list[tuple[str, str]] = []
    left = {p: c for p, c in gone.items() if c}
    right = {p: c for p, c in new.items() if c}
    by_content: dict[bytes, list[str]] = {}
    for path in sorted(left, reverse=True):
        by_content.setdefault(left[path], []).append(path)
    for path, content in sorted(right.items()):
        same = by_content.get(content)
        if same:
            old = same.pop()  # the first by path still free
            pairs.append((old, path))
            del left[old]
    taken = {n for _, n in pairs}
    right = {p: c for p, c in right.items() if p not in taken}
    if len(left) * len(right) > RENAME_PAIR_LIMIT:
        return sorted(pairs)
    lines = {p: _lines(c) for p, c in (*left.items(), *right.items())}
    scored = sorted(
        (-_similarity(lines[old], lines[path], len(a), len(b)), old, path)
        for old, a in left.items()
        for path, b in right.items()
        # The bytes shared are at most the smaller file: too unequal in size is no rename.
        if min(len(a), len(b)) >= MIN_SIMILARITY * max(len(a), len(b))
    )
    used_old: set[str] = set()
    used_new: set[str] = set()
    for score, old, path in scored:
        if -score < MIN_SIMILARITY:
            break
        if old in used_old or path in used_new:
            continue
        used_old.add(old)
        used_new.add(path)
        pairs.append((old, path))
    return sorted(pairs)


def similarity(a: bytes, b: bytes) -> float:
    """Shared line bytes over the larger size: 1.0 for equal contents, 0.0 for nothing shared."""
    if not a and not b:
        return 1.0
    return _similarity(_lines(a), _lines(b), len(a), len(b))


def _lines(content: bytes) -> Counter[bytes]:
    return Counter(content.splitlines(keepends=True))


def _similarity(a: Counter[bytes], b: Counter[bytes], size_a: int, size_b: int) -> float:
    shared = a & b
    return sum(len(line) * n for line, n in shared.items()) / max(size_a, size_b)

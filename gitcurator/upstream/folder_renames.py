"""Which files upstream renamed: a path gone and a path new whose contents match or resemble.

Like git's rename detection: exact matches first, then pairs at least half similar, the most
similar first, each path in one pair at most. Similarity is git's measure in spirit: the
bytes of the lines the two files share (counted with repeats), over the larger file's size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

MIN_SIMILARITY = 0.5


def find_renames(gone: Mapping[str, bytes], new: Mapping[str, bytes]) -> list[tuple[str, str]]:
    """(old path, new path) pairs, by old path; empty files are never taken for renames."""
    pairs: list[tuple[str, str]] = []
    left = {p: c for p, c in gone.items() if c}
    right = {p: c for p, c in new.items() if c}
    for path, content in sorted(right.items()):
        same = sorted(p for p, c in left.items() if c == content)
        if same:
            pairs.append((same[0], path))
            del left[same[0]]
    taken = {n for _, n in pairs}
    right = {p: c for p, c in right.items() if p not in taken}
    scored = sorted(
        ((-similarity(a, b), old, path) for old, a in left.items() for path, b in right.items()),
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
    shared = Counter(a.splitlines(keepends=True)) & Counter(b.splitlines(keepends=True))
    return sum(len(line) * n for line, n in shared.items()) / max(len(a), len(b))

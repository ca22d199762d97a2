"""store.fanout_splice: a notes fan-out folder edited as bytes is the tree written from its
parsed entries; any folder not of notes only, in order, is left to that path (None)."""

from __future__ import annotations

import hashlib
import random

import pytest
from dulwich.objects import Tree

from gitcurator.store.fanout_splice import spliced


def _hex(i: int, length: int = 38) -> bytes:
    return hashlib.sha1(b"%d" % i).hexdigest().encode()[:length]


def _tree(entries: dict[bytes, bytes], mode: int = 0o100644) -> bytes:
    tree = Tree()
    for name, sha in entries.items():
        tree.add(name, mode, sha)
    return bytes(tree.as_raw_string())


@pytest.mark.parametrize("seed", range(20))
def test_a_splice_is_the_tree_written_whole(seed: int) -> None:
    rng = random.Random(seed)
    old = {_hex(i): _hex(i + 1000, 40) for i in rng.sample(range(200), rng.randrange(0, 40))}
    names = list(old)
    edits = {
        n: (_hex(rng.randrange(2000), 40), b"x") for n in rng.sample(names, min(3, len(names)))
    }
    edits |= {_hex(i): (_hex(i + 5000, 40), b"y") for i in rng.sample(range(200, 400), 5)}
    same = next(iter(old), None)
    if same is not None:
        edits[same] = (old[same], b"unchanged")
    found = spliced(_tree(old), edits)
    assert found is not None
    raw, changed = found
    assert raw == _tree(old | {n: blob for n, (blob, _) in edits.items()})
    assert {b for b, _ in changed} == {b for n, (b, _) in edits.items() if old.get(n) != b}


@pytest.mark.parametrize(
    "odd",
    [
        _tree({_hex(1): _hex(2, 40)}, mode=0o100755),  # another mode
        _tree({_hex(1, 40): _hex(2, 40)}),  # a 40-digit name: not a fan-out folder's
        _tree({b"README": _hex(2, 40)}),
        _tree({_hex(1): _hex(2, 40)})[:-1],  # truncated
        _tree({_hex(2): _hex(2, 40)}) + _tree({_hex(1): _hex(1, 40)}),  # out of order
        _tree({_hex(1): _hex(2, 40)}) * 2,  # the same name twice
    ],
)
def test_any_other_folder_is_left_to_the_parsed_edit(odd: bytes) -> None:
    assert spliced(odd, {_hex(3): (_hex(4, 40), b"z")}) is None

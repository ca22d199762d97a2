"""store.tree_delta: a delta from a tree to its next version rebuilds it exactly, and small."""

from __future__ import annotations

import hashlib

import pytest
from dulwich.objects import Tree
from dulwich.pack import apply_delta

from gitcurator.store.objects import FILE_MODE, TREE_MODE
from gitcurator.store.tree_delta import tree_delta


def _tree(names: list[str], salt: str = "") -> bytes:
    tree = Tree()
    for name in names:
        sha = hashlib.sha1((name + salt).encode()).hexdigest().encode()
        tree.add(name.encode(), TREE_MODE if name.startswith("d") else FILE_MODE, sha)
    return tree.as_raw_string()


def _changed(names: list[str], changed: set[str]) -> bytes:
    tree = Tree()
    for name in names:
        salt = "new" if name in changed else ""
        sha = hashlib.sha1((name + salt).encode()).hexdigest().encode()
        tree.add(name.encode(), TREE_MODE if name.startswith("d") else FILE_MODE, sha)
    return tree.as_raw_string()


NAMES = [f"{i:02x}" for i in range(256)] + ["dir", "skills"]
BIG = [f"skill-with-a-long-name-{i:05d}" for i in range(4000)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (_tree(NAMES), _changed(NAMES, {"00"})),
        (_tree(NAMES), _changed(NAMES, {"00", "7f", "ff", "skills"})),
        (_tree(NAMES), _tree(NAMES[:100] + NAMES[101:] + ["zz-added"])),
        (_tree(NAMES), _tree([])),
        (_tree([]), _tree(NAMES)),
        (_tree(NAMES), _tree(NAMES, salt="all changed")),
        (_tree(["a" * 200]), _tree(["a" * 200, "b" * 300])),
        # Runs of shared entries longer than one copy op can say (64 KiB).
        (_tree(BIG), _changed(BIG, {BIG[2500]})),
    ],
)
def test_the_delta_rebuilds_the_new_tree(old: bytes, new: bytes) -> None:
    assert b"".join(apply_delta(old, tree_delta(old, new))) == new


def test_one_changed_entry_of_258_costs_about_one_entry() -> None:
    old = _tree(NAMES)
    new = _changed(NAMES, {"80"})
    delta = tree_delta(old, new)
    assert len(delta) < 60 < len(new) / 100

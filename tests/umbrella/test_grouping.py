"""Groups under both signals, and groups cut to the size of one request."""

from __future__ import annotations

import pytest

from gitcurator.umbrella.grouping import UnionFind, chunks, connected, split
from gitcurator.umbrella.wording_links import WordingLink


def test_union_find_roots_are_the_smallest_index() -> None:
    uf = UnionFind(5)
    uf.union(3, 1)
    uf.union(4, 3)
    assert uf.find(4) == 1
    assert uf.groups(range(5)) == [[0], [1, 3, 4], [2]]


def test_families_and_links_join_groups() -> None:
    families = {0: "pdf", 1: "pdf", 3: "k8s", 4: "k8s"}
    links = [WordingLink(2, 0, 0.6, ("pdf",), "pdf")]
    assert connected(6, families, links) == [[0, 1, 2], [3, 4], [5]]
    assert connected(6, families, links, [3, 4, 5]) == [[3, 4], [5]]


@pytest.mark.parametrize(
    ("size", "max_size", "parts"),
    [(5, 12, [5]), (13, 12, [7, 6]), (25, 12, [9, 8, 8]), (4, 3, [2, 2])],
)
def test_chunks_are_near_equal_and_in_order(size: int, max_size: int, parts: list[int]) -> None:
    found = chunks(list(range(size)), max_size)
    assert [len(p) for p in found] == parts
    assert [i for p in found for i in p] == list(range(size))


def test_split_cuts_the_weakest_link_first() -> None:
    # 0-2 a family; 3 and 4 linked to it by wording, 4 weakly: cutting 4 leaves four.
    families = {0: "pdf", 1: "pdf", 2: "pdf"}
    links = [WordingLink(3, 0, 0.8, (), "pdf"), WordingLink(4, 0, 0.55, (), "pdf")]
    assert split([0, 1, 2, 3, 4], families, links, 4) == [[0, 1, 2, 3], [4]]


def test_split_without_links_to_cut_goes_by_name_order() -> None:
    families = dict.fromkeys(range(7), "pdf")
    assert split(list(range(7)), families, [], 4) == [[0, 1, 2, 3], [4, 5, 6]]

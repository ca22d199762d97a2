"""Average linkage: groups join by their mean pair score, never past one request's size."""

from __future__ import annotations

import pytest

from gitcurator.umbrella.grouping import average_linkage


def test_pairs_at_the_threshold_join_and_the_rest_stay_alone() -> None:
    scores = {(0, 1): 0.6, (2, 3): 0.2, (1, 4): 0.1}
    assert average_linkage(5, scores, 0.2, 12) == [[0, 1], [2, 3], [4]]


def test_a_skill_joins_a_group_only_by_resembling_most_of_it() -> None:
    # 0-1-2 alike; 3 is like 2 alone: its mean against the three is 0.5 / 3.
    scores = {(0, 1): 0.9, (0, 2): 0.8, (1, 2): 0.8, (2, 3): 0.5}
    assert average_linkage(4, scores, 0.3, 12) == [[0, 1, 2], [3]]


def test_a_chain_of_look_alikes_is_not_one_group() -> None:
    # Single linkage would chain all six; each skill resembles only its neighbours.
    chain = {(i, i + 1): 0.5 for i in range(5)}
    groups = average_linkage(6, chain, 0.3, 12)
    assert max(len(g) for g in groups) <= 3
    assert sorted(i for g in groups for i in g) == list(range(6))


def test_no_group_outgrows_max_size() -> None:
    alike = {(a, b): 0.9 for a in range(7) for b in range(a + 1, 7)}
    groups = average_linkage(7, alike, 0.2, 4)
    assert [len(g) for g in groups] == [4, 3]


@pytest.mark.parametrize("order", [False, True])
def test_the_result_does_not_depend_on_the_order_of_scores(order: bool) -> None:
    scores = {(0, 1): 0.5, (1, 2): 0.5, (2, 3): 0.5, (0, 3): 0.5}
    items = sorted(scores.items(), reverse=order)
    assert average_linkage(4, dict(items), 0.3, 12) == average_linkage(4, scores, 0.3, 12)

from __future__ import annotations

import math

import pytest

from gitcurator.json_values import is_count


@pytest.mark.parametrize(
    ("value", "count"),
    [
        (0, True),
        (7, True),
        ((1 << 53) - 1, True),
        (1 << 53, False),
        (10**400, False),
        (-1, False),
        (True, False),
        (2.0, False),
        (math.nan, False),
        (math.inf, False),
        ("3", False),
        (None, False),
    ],
)
def test_only_an_int_a_float_holds_is_a_count(value: object, count: bool) -> None:
    assert is_count(value) is count

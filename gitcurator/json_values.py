"""What a value read from a stored JSON document may be taken as (pure). run.json, notes and
caches can come from a branch or a remote anyone may push, or be edited by hand: JSON lets
them say NaN, Infinity, a 400-digit number or `true` where a count belongs."""

from __future__ import annotations

from typing import TypeGuard

# The largest integer a float holds exactly: past it a share or a sum is no longer true.
_LARGEST_COUNT = 1 << 53


def is_count(value: object) -> TypeGuard[int]:
    """Whether `value` is a count: an int a float can hold, not a bool, not below 0."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _LARGEST_COUNT

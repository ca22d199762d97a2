"""indented_json: a note's text, or any plain document, is what json.dumps(indent=2) writes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcurator.indented_json import indented

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats(allow_nan=True)
    | st.text()
    | st.characters().map(str)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        | st.dictionaries(st.integers() | st.booleans() | st.none(), inner, max_size=2)
    ),
    max_leaves=30,
)


@settings(max_examples=3000)
@given(_VALUES)
def test_indented_is_json_dumps_with_an_indent(doc: object) -> None:
    assert indented(doc) == json.dumps(doc, indent=2, ensure_ascii=False)


def test_deep_nesting_and_subclasses_go_to_json_itself() -> None:
    class Name(str):
        pass

    deep: object = 1
    for _ in range(40):
        deep = {"k": [deep]}
    for doc in (deep, {"skill": Name("x")}, {"n": True, "f": 1.5, "s": '\u2028\x00"é'}):
        assert indented(doc) == json.dumps(doc, indent=2, ensure_ascii=False)

"""The catalogue after an archive-only pass, derived from the one before less the archived
skills' lines, is the catalogue of the tree the pass leaves counted whole."""

from __future__ import annotations

import pytest
from support.plans import pass_inputs, sibling_library

from gitcurator.curation.pass_catalogue import tree_after, with_catalogue
from gitcurator.curation.pass_plan import plan_pass
from gitcurator.lifecycle.catalogue_cost import (
    catalogue_cost,
    catalogue_entries,
    described,
    estimate_tokens,
)


@pytest.mark.parametrize(
    ("live", "idle"),
    [
        (("csv-clean",), ("old-notes",)),
        (("a-first", "m-middle", "z-last"), ("b-idle", "n-idle", "zz-idle")),
        (("only-live",), ()),
        (("x-one", "y-two"), ("éclair-notes", "日本-skill")),
        # Long one-word names: characters, not words, decide the estimate.
        (("abcdefghijklmnopqrstuvwxyz0123456789",), tuple(f"{c * 40}" for c in "bcdefghij")),
    ],
)
def test_the_derived_catalogue_after_equals_the_tree_after_counted_whole(
    live: tuple[str, ...], idle: tuple[str, ...]
) -> None:
    files, rows = sibling_library(*live, idle=idle)
    plan = plan_pass(pass_inputs(files, rows))
    assert sorted(t.name for t in plan.lifecycle.archived) == sorted(idle)
    after = tree_after(plan)

    def describe(path: str) -> tuple[str | None, str | None]:
        entry = after[path]
        blob = entry if isinstance(entry, bytes) else plan.inputs.read(entry[0])
        return described(blob)

    whole = catalogue_cost(catalogue_entries(after, describe), estimate_tokens, "estimate")
    for count in (estimate_tokens, lambda text: estimate_tokens(text)):  # derived, then whole
        done = with_catalogue(plan, count, "estimate").catalogue
        assert done is not None and done.after == whole
        assert done.before.skills == len(live) + len(idle)

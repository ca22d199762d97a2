"""What a pass does to the skill catalogue (no I/O): the live skills' names and descriptions
on the default branch and in the tree the pass leaves, counted by the tokenizer the command
chose (token_counter, in the shell)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gitcurator.curation.pass_plan import PassPlan, moved_entries
from gitcurator.lifecycle.catalogue_cost import (
    ESTIMATE,
    CatalogueChange,
    CatalogueCost,
    Described,
    TokenCounter,
    catalogue_cost,
    catalogue_entries,
    described,
    estimate_tokens,
)
from gitcurator.store import ObjectID

# A file of the tree after the pass: a stored (blob, mode), or the bytes an umbrella writes.
File = tuple[ObjectID, int] | bytes


def with_catalogue(
    plan: PassPlan, count: TokenCounter = estimate_tokens, tokenizer: str = ESTIMATE
) -> PassPlan:
    """`plan` with its catalogue before and after, counted by `count` (named `tokenizer`)."""
    before: dict[str, File] = dict(plan.inputs.entries)
    change = CatalogueChange(
        _cost(plan, before, count, tokenizer), _cost(plan, tree_after(plan), count, tokenizer)
    )
    return replace(plan, catalogue=change)


def tree_after(plan: PassPlan) -> dict[str, File]:
    """The files of the tree the pass leaves, without writing it: the archive and restore
    moves, then each umbrella's moves, writes and copies, in the order apply commits them."""
    files: dict[str, File] = moved_entries(
        plan.inputs.entries, plan.archive_moves + plan.restore_moves
    )
    for fold in plan.folds:
        umbrella = fold.umbrella
        files = moved_entries(files, list(umbrella.archived.items()))
        files.update(umbrella.writes)
        files.update(umbrella.copies)
    return files


def _cost(
    plan: PassPlan, files: Mapping[str, File], count: TokenCounter, tokenizer: str
) -> CatalogueCost:
    inputs = plan.inputs

    def describe(path: str) -> Described:
        file = files[path]
        if isinstance(file, bytes):
            return described(file)
        blob = file[0]
        known = inputs.described.get(blob)
        return known if known is not None else described(inputs.read(blob))

    config = inputs.config
    entries = catalogue_entries(files, describe, config.skills_dir, config.include)
    return catalogue_cost(entries, count, tokenizer)

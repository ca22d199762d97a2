"""What a pass does to the skill catalogue (no I/O): the live skills' names and descriptions
on the default branch and in the tree the pass leaves, counted by the tokenizer the command
chose (token_counter, in the shell)."""

from __future__ import annotations

import bisect
from collections.abc import Collection, Mapping
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
    catalogue_line,
    described,
    estimate_from,
    estimate_parts,
    estimate_tokens,
)
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.store import ObjectID

# A file of the tree after the pass: a stored (blob, mode), or the bytes an umbrella writes.
File = tuple[ObjectID, int] | bytes


def with_catalogue(
    plan: PassPlan, count: TokenCounter = estimate_tokens, tokenizer: str = ESTIMATE
) -> PassPlan:
    """`plan` with its catalogue before and after, counted by `count` (named `tokenizer`)."""
    inputs = plan.inputs
    if plan.folds or plan.restores:
        files: dict[str, File] = dict(inputs.entries)
        change = CatalogueChange(
            _cost(plan, files, count, tokenizer), _cost(plan, tree_after(plan), count, tokenizer)
        )
        return replace(plan, catalogue=change)
    # Only archive moves: the tree after is the tree before without the moved folders (each
    # moved whole into .archive/, where no skill is live), so its catalogue is the one
    # before less theirs, in the same order; no second listing of every file is needed.
    config = inputs.config
    found = inputs.locations or find_skills(inputs.entries, config.skills_dir, config.include)
    live = [loc for loc in found if not loc.archived]
    moved = {folder for folder, _ in plan.archive_moves}
    gone = [_under(loc.folder, moved) for loc in live]
    listed = _listed(plan, live)
    kept = [entry for entry, out in zip(listed, gone, strict=True) if not out]
    if count is estimate_tokens and kept:
        return replace(plan, catalogue=_estimate_change(listed, gone, tokenizer))
    before = catalogue_cost(listed, count, tokenizer)
    after = catalogue_cost(kept, count, tokenizer)
    return replace(plan, catalogue=CatalogueChange(before, after))


def _estimate_change(
    listed: list[tuple[str, str]], gone: list[bool], tokenizer: str
) -> CatalogueChange:
    """The estimate's catalogue_cost of `listed`, and of `listed` less the entries `gone`
    marks: the whole catalogue's characters and words (counted once, for both) less the
    removed lines' (each with its newline)."""
    lines = [catalogue_line(name, description) for name, description in listed]
    chars, words = estimate_parts("\n".join(lines))
    before = CatalogueCost(len(lines), estimate_from(chars, words) if chars else 0, tokenizer)
    removed = [line for line, out in zip(lines, gone, strict=True) if out]
    for line in removed:
        less_chars, less_words = estimate_parts(line)
        chars, words = chars - less_chars - 1, words - less_words
    after = CatalogueCost(len(lines) - len(removed), estimate_from(chars, words), tokenizer)
    return CatalogueChange(before, after)


def tree_after(plan: PassPlan) -> dict[str, File]:
    """The files of the tree the pass leaves, without writing it: the archive and restore
    moves, then each umbrella's moves, writes and copies, in the order apply commits them."""
    files: dict[str, File] = moved_entries(
        plan.inputs.entries, plan.archive_moves + plan.restore_moves
    )
    # Each umbrella moves a few folders: the paths under them are found in the sorted
    # listing (a folder's files are one run of it), not by a walk over every file per fold.
    listing = sorted(files)
    for fold in plan.folds:
        umbrella = fold.umbrella
        _move(files, listing, list(umbrella.archived.items()))
        added: dict[str, File] = {**umbrella.writes, **umbrella.copies}
        for path, file in added.items():
            if path not in files:
                bisect.insort(listing, path)
            files[path] = file
    return files


def _move(files: dict[str, File], listing: list[str], moves: list[tuple[str, str]]) -> None:
    """moved_entries in place, `listing` (sorted keys of `files`) kept in step."""
    sources = [source for source, _ in moves]
    if any(_under(a, {b}) for a in sources for b in sources if a != b):
        # Nested folders move with the deepest one holding each file: as moved_entries does.
        moved = moved_entries(files, moves)
        files.clear()
        files.update(moved)
        listing[:] = sorted(files)
        return
    taken: list[tuple[str, File]] = []
    for source, target in moves:
        start = bisect.bisect_left(listing, source + "/")
        end = bisect.bisect_left(listing, source + "0")  # "0" follows "/": the run's end
        for path in listing[start:end]:
            taken.append((target + path[len(source) :], files.pop(path)))
        del listing[start:end]
    for path, file in taken:
        if path not in files:
            bisect.insort(listing, path)
        files[path] = file


def _under(folder: str, moved: Collection[str]) -> bool:
    """Whether `folder` is one of `moved` or inside one."""
    at = len(folder)
    while at > 0:
        if folder[:at] in moved:
            return True
        at = folder.rfind("/", 0, at)
    return False


def _listed(plan: PassPlan, locations: list[SkillLocation]) -> list[tuple[str, str]]:
    """(name, description) of each of `locations`, as catalogue_entries lists them."""
    inputs = plan.inputs
    found = []
    for loc in locations:
        name, description = _stored(plan, inputs.entries[loc.skill_md][0])
        found.append((name or loc.dirname, description or ""))
    return found


def _stored(plan: PassPlan, blob: ObjectID) -> Described:
    known = plan.inputs.described.get(blob)
    return known if known is not None else described(plan.inputs.read(blob))


def _cost(
    plan: PassPlan, files: Mapping[str, File], count: TokenCounter, tokenizer: str
) -> CatalogueCost:
    inputs = plan.inputs

    def describe(path: str) -> Described:
        file = files[path]
        if isinstance(file, bytes):
            return described(file)
        return _stored(plan, file[0])

    config = inputs.config
    entries = catalogue_entries(files, describe, config.skills_dir, config.include)
    return catalogue_cost(entries, count, tokenizer)

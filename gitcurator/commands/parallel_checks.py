"""Skills checked in worker processes before a big first check (init), their results handed
to check_tree through its memo, so the checks of 10,000 skills use every core.

Only results that follow from a skill's own files are handed over (check_tree's rule for any
remembered result); check_tree itself still decides everything across the library, and any
skill a worker did not answer for is checked by check_tree as always. A worker that fails
costs only its share of the head start.
"""

from __future__ import annotations

import functools
import os
import pickle
from collections.abc import Sequence

from gitcurator import forked
from gitcurator.skills.check_memo import SkillMemo, Summary
from gitcurator.skills.check_skill import frontmatter_name
from gitcurator.skills.check_tree import check_one
from gitcurator.skills.document import SkillLocation
from gitcurator.skills.files import FileTree

# Below this many skills a worker's start-up costs more than it saves.
_MIN_SKILLS = 1000

Part = tuple[dict[str, Summary], dict[str, str]]


def precheck(
    tree: FileTree, skills: Sequence[SkillLocation], strict: bool, memo: SkillMemo
) -> dict[str, str]:
    """Check `skills` across worker processes and add what they found to `memo.known` (a
    dict); returns the frontmatter names the workers parsed (SKILL.md blob id -> name)."""
    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or len(skills) < _MIN_SKILLS or not isinstance(memo.known, dict):
        return {}
    if not forked.can_fork():
        return {}
    chunks = [list(skills[i::workers]) for i in range(workers)]
    running: list[forked.Child] = []
    names: dict[str, str] = {}
    try:
        for chunk in chunks:
            running.append(forked.start(functools.partial(_pickled, tree, chunk, strict, memo)))
        while running:
            data = running[0].result()
            running.pop(0)  # reaped: its pid is no longer ours to signal
            if data:
                part: Part = pickle.loads(data)  # from our own fork, over a private pipe
                memo.known.update(part[0])
                names.update(part[1])
    finally:
        for child in running:  # an interrupt or a failure: the rest are stopped
            child.stop()
    return names


def _pickled(tree: FileTree, chunk: list[SkillLocation], strict: bool, memo: SkillMemo) -> bytes:
    return pickle.dumps(_work(tree, chunk, strict, memo), pickle.HIGHEST_PROTOCOL)


def _work(tree: FileTree, chunk: list[SkillLocation], strict: bool, memo: SkillMemo) -> Part:
    mine = SkillMemo(memo.contents)
    repo_paths = frozenset(tree.paths)
    parsed: dict[str, str] = {}
    for loc in chunk:
        check_one(tree, loc, strict, repo_paths, mine)
        got = memo.contents.get(loc.skill_md)
        data = tree.load(loc.skill_md).data if got is not None else None
        if got is not None and data is not None and loc.skill_md not in tree.links:
            parsed[got[0]] = frontmatter_name(data)
    return mine.fresh, parsed

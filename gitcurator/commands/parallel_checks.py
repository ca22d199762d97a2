"""Skills checked in worker processes before a big first check (init), their results handed
to check_tree through its memo, so the checks of 10,000 skills use every core.

Only results that follow from a skill's own files are handed over (check_tree's rule for any
remembered result); check_tree itself still decides everything across the library, and any
skill a worker did not answer for is checked by check_tree as always. A worker that fails
costs only its share of the head start.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gitcurator.skills.check_memo import SkillMemo, Summary
from gitcurator.skills.check_skill import frontmatter_name
from gitcurator.skills.check_tree import check_one
from gitcurator.skills.document import SkillLocation
from gitcurator.skills.files import FileTree

# Below this many skills a worker's start-up costs more than it saves.
_MIN_SKILLS = 1000
# What the forked workers read: set just before the pool forks, never pickled.
_JOB: tuple[FileTree, list[list[SkillLocation]], bool, SkillMemo] | None = None

Part = tuple[dict[str, Summary], dict[str, str]]


def precheck(
    tree: FileTree, skills: Sequence[SkillLocation], strict: bool, memo: SkillMemo
) -> dict[str, str]:
    """Check `skills` across worker processes and add what they found to `memo.known` (a
    dict); returns the frontmatter names the workers parsed (SKILL.md blob id -> name)."""
    import threading

    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or len(skills) < _MIN_SKILLS or not isinstance(memo.known, dict):
        return {}
    if threading.active_count() > 1:
        return {}  # forking a process with threads (a server calling init) can deadlock
    import multiprocessing

    global _JOB
    _JOB = (tree, [list(skills[i::workers]) for i in range(workers)], strict, memo)
    names: dict[str, str] = {}
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for known, parsed in pool.imap_unordered(_work, range(workers)):
                memo.known.update(known)
                names.update(parsed)
    except (OSError, ValueError):
        return names  # no fork here (or no room for it): check_tree checks them all
    finally:
        _JOB = None
    return names


def _work(part: int) -> Part:
    assert _JOB is not None
    tree, chunks, strict, memo = _JOB
    mine = SkillMemo(memo.contents)
    repo_paths = frozenset(tree.paths)
    parsed: dict[str, str] = {}
    for loc in chunks[part]:
        check_one(tree, loc, strict, repo_paths, mine)
        got = memo.contents.get(loc.skill_md)
        data = tree.load(loc.skill_md).data if got is not None else None
        if got is not None and data is not None and loc.skill_md not in tree.links:
            parsed[got[0]] = frontmatter_name(data)
    return mine.fresh, parsed

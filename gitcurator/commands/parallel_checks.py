"""Skills checked in worker processes before a big first check (init), their results handed
to check_tree through its memo, so the checks of 10,000 skills use every core.

Only results that follow from a skill's own files are handed over (check_tree's rule for any
remembered result); check_tree itself still decides everything across the library, and any
skill a worker did not answer for is checked by check_tree as always. A worker that fails
costs only its share of the head start.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Sequence

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
    import threading

    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or len(skills) < _MIN_SKILLS or not isinstance(memo.known, dict):
        return {}
    if threading.active_count() > 1 or not hasattr(os, "fork"):
        return {}  # forking a process with threads (a server calling init) can deadlock
    # Plain forks and pipes, not multiprocessing.Pool: its handler threads may fork a
    # replacement worker while they hold a lock, and that worker then waits for good.
    chunks = [list(skills[i::workers]) for i in range(workers)]
    running: list[tuple[int, int]] = []
    names: dict[str, str] = {}
    try:
        for chunk in chunks:
            running.append(_start(tree, chunk, strict, memo))
        while running:
            part = _collect(*running[0])
            running.pop(0)  # reaped: its pid is no longer ours to signal
            if part is not None:
                memo.known.update(part[0])
                names.update(part[1])
    finally:
        for pid, fd in running:  # an interrupt or a failure: the rest are stopped
            _stop(pid, fd)
    return names


def _start(
    tree: FileTree, chunk: list[SkillLocation], strict: bool, memo: SkillMemo
) -> tuple[int, int]:
    """A forked worker checking `chunk`; (its pid, the pipe its pickled Part comes from)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: never returns into the command
        code = 1
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            data = pickle.dumps(_work(tree, chunk, strict, memo), pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _collect(pid: int, fd: int) -> Part | None:
    """A worker's Part once it is done (None if it failed: check_tree checks its share);
    the worker is reaped and its pipe closed."""
    with os.fdopen(fd, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not data:
        return None
    part: Part = pickle.loads(data)  # from our own fork, over a private pipe
    return part


def _stop(pid: int, fd: int) -> None:
    """Close the pipe and end the worker, not yet reaped (after a failure or an interrupt)."""
    with contextlib.suppress(OSError):
        os.close(fd)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, 0)


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

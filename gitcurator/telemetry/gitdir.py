"""The git dir, its common dir and HEAD, read from git's own files (no dulwich: the hot path)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from gitcurator.statefiles import state_folder


def find_gitdir(start: Path) -> tuple[Path, Path]:
    """(work tree root, git dir) for `start`, following a `.git` file (worktrees, submodules)."""
    here = start.absolute()
    for folder in (here, *here.parents):
        dotgit = folder / ".git"
        if dotgit.is_dir():
            return folder, dotgit
        if dotgit.is_file():
            text = dotgit.read_text(encoding="utf-8").strip()
            if text.startswith("gitdir:"):
                target = Path(text[len("gitdir:") :].strip())
                return folder, target if target.is_absolute() else (folder / target).resolve()
    raise FileNotFoundError(str(start))


def common_dir(gitdir: Path) -> Path:
    """Where refs and objects live (differs from gitdir in a linked worktree)."""
    pointer = gitdir / "commondir"
    if pointer.exists():
        target = Path(pointer.read_text(encoding="utf-8").strip())
        return target if target.is_absolute() else (gitdir / target).resolve()
    return gitdir


def read_head(gitdir: Path) -> str | None:
    """The commit id HEAD resolves to, read from the ref files (None without commits)."""
    text = (gitdir / "HEAD").read_text(encoding="utf-8").strip()
    if not text.startswith("ref:"):
        return text or None
    return read_ref(common_dir(gitdir), text[4:].strip())


def read_ref(commondir: Path, ref: str) -> str | None:
    """A ref's commit id from its loose file or packed-refs."""
    loose = commondir / ref
    with contextlib.suppress(FileNotFoundError, IsADirectoryError):
        value = loose.read_text(encoding="utf-8").strip()
        if value.startswith("ref:"):
            return read_ref(commondir, value[4:].strip())
        return value or None
    with contextlib.suppress(FileNotFoundError):
        for line in (commondir / "packed-refs").read_text(encoding="utf-8").splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    return None


def state_dir(gitdir: Path) -> Path:
    """gitcurator's per-clone state: journal, segments, caches, schedule, host id."""
    return state_folder(common_dir(gitdir))

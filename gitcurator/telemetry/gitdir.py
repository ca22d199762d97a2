"""The git dir, its common dir and HEAD, read from git's own files (no dulwich: the hot path).

`record` works on path strings spelled exactly as pathlib spells them (`pure_path`), so that
its messages name the same paths, without importing pathlib (milliseconds on every call: it
loads re, fnmatch and urllib.parse). `find_gitdir`, `common_dir` and `state_dir` give the same
answers as `Path`s to everything else.
"""

from __future__ import annotations

import os
import stat
from errno import EBADF, ELOOP, ENOENT, ENOTDIR

from gitcurator.statefiles import STATE_DIR

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# The errors pathlib's is_dir()/is_file() read as "no" (any other OSError is raised).
_NOT_THERE = (ENOENT, ENOTDIR, EBADF, ELOOP)


def pure_path(text: str) -> str:
    """`str(PurePosixPath(text))` without pathlib: '.' parts and repeated or trailing slashes
    dropped, '..' kept, a leading '//' kept as POSIX allows."""
    root = ""
    if text.startswith("/"):
        root = "//" if text.startswith("//") and not text.startswith("///") else "/"
    parts = [part for part in text.split("/") if part and part != "."]
    return (root + "/".join(parts)) or "."


def absolute(text: str) -> str:
    """`str(Path(text).absolute())`: the current folder prepended, nothing resolved."""
    # os.path.join: from `/` a plain concatenation would give `//tmp`, which POSIX (and
    # pure_path) keep apart from `/tmp`.
    return pure_path(text if text.startswith("/") else os.path.join(os.getcwd(), text))


def _kind(path: str) -> int:
    """The file type bits of `path` (0 when it is not there), as pathlib's is_dir() sees it."""
    try:
        return stat.S_IFMT(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno not in _NOT_THERE:
            raise
    except ValueError:  # an embedded NUL: no such file
        pass
    return 0


def locate(start: str) -> tuple[str, str]:
    """(work tree root, git dir) for the folder `start`, as strings (see `find_gitdir`)."""
    folder = absolute(start)
    while True:
        dotgit = pure_path(f"{folder}/.git")
        kind = _kind(dotgit)
        if kind == stat.S_IFDIR:
            return folder, dotgit
        if kind == stat.S_IFREG:
            with open(dotgit, encoding="utf-8") as file:
                text = file.read().strip()
            if text.startswith("gitdir:"):
                target = pure_path(text[len("gitdir:") :].strip())
                return folder, target if target.startswith("/") else _resolve(folder, target)
        parent = os.path.dirname(folder)
        if parent == folder:
            raise FileNotFoundError(pure_path(start))
        folder = parent


def _resolve(folder: str, target: str) -> str:
    """`str((Path(folder) / target).resolve())`, a symlink loop raised as pathlib raises it."""
    path = os.path.realpath(f"{folder}/{target}")
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == ELOOP:
            raise RuntimeError(f"Symlink loop from {exc.filename!r}") from None
    return path


def find_gitdir(start: Path) -> tuple[Path, Path]:
    """(work tree root, git dir) for `start`, following a `.git` file (worktrees, submodules)."""
    from pathlib import Path

    root, git = locate(os.fspath(start))
    return Path(root), Path(git)


def common(gitdir: str | os.PathLike[str]) -> str:
    """Where refs and objects live (differs from gitdir in a linked worktree), as a string."""
    pointer = os.path.join(gitdir, "commondir")
    if not _kind(pointer):
        return pure_path(os.fspath(gitdir))
    with open(pointer, encoding="utf-8") as file:
        target = pure_path(file.read().strip())
    if target.startswith("/"):
        return target
    return _resolve(pure_path(os.fspath(gitdir)), target)


def common_dir(gitdir: Path) -> Path:
    """Where refs and objects live (differs from gitdir in a linked worktree)."""
    from pathlib import Path

    return Path(common(gitdir))


def read_head(gitdir: str | os.PathLike[str]) -> str | None:
    """The commit id HEAD resolves to, read from the ref files (None without commits)."""
    with open(os.path.join(gitdir, "HEAD"), encoding="utf-8") as file:
        text = file.read().strip()
    if not text.startswith("ref:"):
        return text or None
    return read_ref(common(gitdir), text[4:].strip())


def read_ref(commondir: str | os.PathLike[str], ref: str) -> str | None:
    """A ref's commit id from its loose file or packed-refs."""
    try:
        with open(os.path.join(commondir, ref), encoding="utf-8") as file:
            value = file.read().strip()
    except (FileNotFoundError, IsADirectoryError):
        pass
    else:
        if value.startswith("ref:"):
            return read_ref(commondir, value[4:].strip())
        return value or None
    try:
        with open(os.path.join(commondir, "packed-refs"), encoding="utf-8") as file:
            lines = file.read().splitlines()
    except FileNotFoundError:
        return None
    for line in lines:
        if line.endswith(" " + ref):
            return line.split(" ", 1)[0]
    return None


def state_path(gitdir: str | os.PathLike[str]) -> str:
    """gitcurator's per-clone state folder, as a string (see `state_dir`)."""
    return pure_path(f"{common(gitdir)}/{STATE_DIR}")


def state_dir(gitdir: Path) -> Path:
    """gitcurator's per-clone state: journal, segments, caches, schedule, host id."""
    from pathlib import Path

    return Path(state_path(gitdir))

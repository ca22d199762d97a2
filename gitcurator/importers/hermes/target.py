"""The repository a Hermes import goes into, and undoing what the import wrote if it fails.

The target is opened (or created like `init` does), checked not to overlap the Hermes folder
in a way that is neither in place nor a copy, and in place gets Hermes' state added to the
skills folder's .gitignore. Every file-system change registers how to undo it.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gitcurator.config import Config
from gitcurator.errors import CuratorError, NotARepository, UsageError
from gitcurator.importers.hermes.source import SourceListing
from gitcurator.importers.hermes.state_files import (
    ignore_patterns,
    is_known_state,
    updated_gitignore,
)
from gitcurator.library import init_store, open_store, read_config
from gitcurator.store import Store


@dataclass(slots=True)
class Undo:
    """Steps that put the file system back as it was, run newest first if the import fails."""

    steps: list[Callable[[], object]] = field(default_factory=list)

    def add(self, step: Callable[[], object]) -> None:
        self.steps.append(step)

    def run(self) -> None:
        for step in reversed(self.steps):
            with contextlib.suppress(OSError):
                step()

    def forget(self) -> None:
        """The import is committed: from here on nothing is undone."""
        self.steps.clear()


@dataclass(slots=True)
class Target:
    """The repository the skills go into and where its library starts."""

    store: Store
    config: Config
    in_place: bool  # the Hermes folder is the repository's skills folder itself
    undo: Undo

    @property
    def skills_root(self) -> Path:
        return self.store.root / self.config.skills_dir

    @property
    def prefix(self) -> str:
        return self.config.skills_dir + "/" if self.config.skills_dir else ""


def open_target(source: Path, repo_dir: Path | None) -> Target:
    """The repository at `repo_dir` (else `source`), created like `init` does if there is none."""
    start = (repo_dir or source).absolute()
    if start.exists() and not start.is_dir():
        raise UsageError(f"{start} is a file; -C needs the repository's folder")
    undo = Undo()
    try:
        store = open_store(start)
    except NotARepository:
        if not start.exists():
            undo.add(lambda: shutil.rmtree(start))
        store, _ = init_store(start)
        undo.add(lambda: shutil.rmtree(start / ".git"))
    try:
        target = Target(store, read_config(store.root), False, undo)
        skills_root = target.skills_root.resolve()
        target.in_place = skills_root == source.resolve()
        if not target.in_place:
            _refuse_overlap(source, store.root, skills_root, repo_dir)
    except BaseException:
        store.close()
        undo.run()
        raise
    return target


def _refuse_overlap(source: Path, root: Path, skills_root: Path, repo_dir: Path | None) -> None:
    real = source.resolve()
    if repo_dir is None or real.is_relative_to(root) or skills_root.is_relative_to(real):
        raise CuratorError(
            f"{source} overlaps the git repository {root} without being its skills folder "
            f"({skills_root}), so it can be neither taken over in place nor copied there; "
            f"import it into a repository of its own: `gitcurator import hermes {source} "
            "-C NEW-FOLDER`"
        )


def ignore_state(target: Target, source: Path, listing: SourceListing) -> list[str]:
    """Add Hermes' state to the skills folder's .gitignore; the entries found there."""
    tracked = {p.removeprefix(target.prefix).split("/")[0] for p in target.store.head_paths()}
    # An unknown dot-file the repository already tracks is a person's file, not Hermes' state.
    state = [n for n in listing.state if is_known_state(n) or n not in tracked]
    path = source / ".gitignore"
    # surrogateescape: a .gitignore in another encoding is appended to, not refused.
    existing = path.read_text("utf-8", "surrogateescape") if path.is_file() else None
    text = updated_gitignore(existing, ignore_patterns(state))
    if text is not None:
        write_file(target.undo, path, text)
    return state


def write_file(undo: Undo, path: Path, text: str) -> None:
    """Write `text` to `path`, registering with `undo` how to put back what was there."""
    old = path.read_bytes() if path.exists() else None
    undo.add(lambda: path.write_bytes(old) if old is not None else path.unlink())
    path.write_text(text, "utf-8", "surrogateescape")

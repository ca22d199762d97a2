"""The Store: a skills repository opened through dulwich, and the façade the rest of gitcurator
calls (the methods below hand over to the store module that owns each concept).

It opens and creates repositories and answers what HEAD and the branches point at; the work
tree, the index, trees, commits and refs each have a module of their own in this package.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from dulwich.errors import NotGitRepository
from dulwich.objects import ObjectID
from dulwich.refs import Ref
from dulwich.repo import Repo

from gitcurator.errors import NotARepository, StoreError
from gitcurator.progress import NO_PROGRESS, Progress
from gitcurator.statefiles import state_folder
from gitcurator.store import loose_objects, loose_reader, pack_reader
from gitcurator.store.signature import Signature

if TYPE_CHECKING:
    from gitcurator.skills.files import FileEntry, FileTree
    from gitcurator.store.staging import WorktreeChanges, WorktreeScan

DEFAULT_BRANCH = "main"


class Store:
    """A skills repository opened through dulwich. Use as a context manager.

    `signature` says who the commits made through it are by, and when; a store opened without
    one (to read) refuses to commit.
    """

    def __init__(self, repo: Repo, signature: Signature | None = None) -> None:
        if repo.object_format.oid_length != 20:
            # Every id gitcurator writes (notes keys, packs, the index) is SHA-1: in a
            # SHA-256 repository it would write objects git cannot read.
            path = repo.path
            repo.close()
            raise StoreError(
                f"{path} is a SHA-256 git repository ({repo.object_format.name}); gitcurator "
                "works with SHA-1 repositories only (git's default): keep the library in one "
                "made by plain `git init`"
            )
        self.repo = repo
        self.root = Path(repo.path).resolve()
        self.signature = signature
        self._packs = pack_reader.install(repo.object_store)
        loose_objects.install(repo.object_store)
        loose_reader.install(repo.object_store)

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release the repository's files (open packs)."""
        # An interrupt's traceback may still hold a memoryview into a mapped pack, and
        # mmap.close() refuses while one is exported (BufferError). The packs are read-only:
        # the mapping goes with the last view, and the interrupt carries on as itself.
        with contextlib.suppress(BufferError):
            self.repo.close()
        if self._packs is not None:
            self._packs.close()

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def discover(cls, start: Path, signature: Signature | None = None) -> Store:
        """The repository holding `start` (a folder), or NotARepository with the fix."""
        if not start.exists():
            raise NotARepository(f"{start}: no such folder")
        try:
            repo = Repo.discover(str(start))
        except NotGitRepository:
            raise NotARepository(
                f"{start} is not inside a skills repository (no .git found in it or above it); "
                f"run `gitcurator init {start}` to make it one"
            ) from None
        if repo.bare:
            gitdir = Path(repo.controldir()).resolve()
            repo.close()
            if gitdir.name == ".git" and gitdir.parent.is_dir():
                # Inside a work tree's .git folder: dulwich opens that folder as bare.
                raise NotARepository(
                    f"{start} is inside the .git folder of {gitdir.parent}; run gitcurator "
                    f"from the work tree (`-C {gitdir.parent}`)"
                )
            raise NotARepository(f"{start} is a bare git repository; gitcurator needs a work tree")
        return cls(repo, signature)

    @classmethod
    def init(cls, path: Path, signature: Signature | None = None) -> tuple[Store, bool]:
        """Open the repository at `path`, creating it (default branch main) if there is none."""
        path.mkdir(parents=True, exist_ok=True)
        if (path / ".git").exists():
            return cls(Repo(str(path)), signature), False
        repo = Repo.init(str(path), default_branch=DEFAULT_BRANCH.encode())
        return cls(repo, signature), True

    def reopened(self) -> Store:
        """This repository opened anew, its files its own: a forked child reading packs through
        them (dulwich reads some through a file) never moves its parent's offsets."""
        return Store.discover(self.root, self.signature)

    def state_dir(self) -> Path:
        """The folder inside .git/ that holds gitcurator's per-clone state (.git/gitcurator,
        in the common dir: one for all of a clone's work trees)."""
        return state_folder(Path(self.repo.commondir()))

    def config_value(self, section: str, key: str) -> str | None:
        """A git configuration value (repository, global and system files), or None."""
        try:
            value = self.repo.get_config_stack().get(section.encode(), key.encode())
        except KeyError:
            return None
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else None

    def hooks_dir(self) -> Path:
        """Where git looks for hooks: core.hooksPath if set, else .git/hooks."""
        configured = self.config_value("core", "hooksPath")
        if configured:
            path = Path(os.path.expanduser(configured))
            return path if path.is_absolute() else self.root / path
        return Path(self.repo.controldir()) / "hooks"

    # -- HEAD and branches ---------------------------------------------------------------

    def head_commit(self) -> ObjectID | None:
        """The commit HEAD points at, or None in a repository without commits."""
        try:
            return self.repo.refs[Ref(b"HEAD")]
        except KeyError:
            return None

    def head_branch(self) -> str | None:
        """The checked-out branch name (None when HEAD is detached)."""
        target = self.repo.refs.get_symrefs().get(Ref(b"HEAD"))
        if target and target.startswith(b"refs/heads/"):
            return target[len(b"refs/heads/") :].decode()
        return None

    def default_branch(self) -> str:
        """The branch curator passes start from and merge into: the checked-out one, unless
        HEAD is detached or on a review branch (curator/*, update/*), then `main` (or `master`)."""
        current = self.head_branch()
        if current and not current.startswith(("curator/", "update/")):
            return current
        for name in ("main", "master"):
            if Ref(f"refs/heads/{name}".encode()) in self.repo.refs:
                return name
        return current or DEFAULT_BRANCH

    def branch_tip(self, name: str) -> ObjectID | None:
        """The commit a local branch points at (None if there is no such branch)."""
        try:
            return self.repo.refs[Ref(f"refs/heads/{name}".encode())]
        except KeyError:
            return None

    # -- the façade: each hands over to the module that owns the concept ------------------
    # Each imported where it is called: opening a Store (a flush, a record's rebuild) needs
    # none of them, and staging, the index and the work tree cost a quarter of its imports.

    def walk_worktree(self) -> Iterator[tuple[str, str]]:
        """(absolute path, repo-relative path) of every file `git add -A` would see."""
        from gitcurator.store import worktree

        return worktree.walk_worktree(self)

    def nested_repositories(self, head_links: Iterable[str] | None = None) -> list[str]:
        """Folders left out of every commit because each is a repository of its own
        (`head_links`: HEAD's submodule links, when the caller knows them)."""
        from gitcurator.store import worktree

        return worktree.nested_repositories(self, head_links)

    def head_links(self) -> list[str]:
        """The submodule links (mode 160000) of HEAD's tree, sorted."""
        from gitcurator.store import worktree

        return worktree.head_links_of(self)

    def worktree_tree(self) -> FileTree:
        """The work tree as a FileTree; files are read when a check asks for them."""
        from gitcurator.store import worktree

        return worktree.worktree_tree(self)

    def scan_worktree(self, progress: Progress = NO_PROGRESS) -> WorktreeScan:
        """Stage every file `git add -A` would, as blobs held in memory until committed."""
        from gitcurator.store import staging

        return staging.scan_worktree(self, progress)

    def scan_tree(self, scan: WorktreeScan) -> FileTree:
        """A scan as a FileTree, so what is checked is what gets committed."""
        from gitcurator.store import staging

        return staging.scan_tree(scan)

    def commit_scan(self, scan: WorktreeScan, message: str) -> ObjectID:
        """Commit exactly the scanned files as the new tree of the checked-out branch."""
        from gitcurator.store import staging

        return staging.commit_scan(self, scan, message)

    def worktree_changes(self, folders: set[str]) -> WorktreeChanges:
        """Files added, modified or removed under `folders`, work tree against HEAD."""
        from gitcurator.store import staging

        return staging.worktree_changes(self, folders)

    def commit_changes(self, changes: WorktreeChanges, message: str) -> ObjectID:
        """Commit exactly these changes on top of HEAD and update their index entries."""
        from gitcurator.store import staging

        return staging.commit_changes(self, changes, message)

    def commit_new_file(self, path: str, data: bytes, message: str) -> ObjectID:
        """Write `path` to the work tree and commit it on top of HEAD, leaving all else as is."""
        from gitcurator.store import staging

        return staging.commit_new_file(self, path, data, message)

    def staged_tree(self) -> FileTree:
        """What is staged for the next commit (honours GIT_INDEX_FILE, as git's hooks need)."""
        from gitcurator.store import index

        return index.staged_tree(self)

    def staged_changes(self) -> set[str]:
        """The paths the next commit adds, changes or removes against HEAD."""
        from gitcurator.store import index

        return index.staged_changes(self)

    def head_tree(self) -> FileTree:
        """HEAD's committed files as a FileTree (empty without commits)."""
        from gitcurator.store import index

        return index.stored_tree(self, self.head_entries())

    def staged_entries(self) -> Iterator[tuple[str, ObjectID, int]]:
        """(path, blob sha, mode) of every stage-0 entry of the index."""
        from gitcurator.store import index

        return index.staged_entries(self)

    def tree_entries(self, tree: ObjectID) -> dict[str, tuple[ObjectID, int]]:
        """path -> (blob id, mode) of every file under `tree`."""
        from gitcurator.store import trees

        return trees.tree_entries(self, tree)

    def head_entries(self) -> dict[str, tuple[ObjectID, int]]:
        """path -> (blob id, mode) of every file in HEAD's tree (empty without commits)."""
        head = self.head_commit()
        if head is None:
            return {}
        from gitcurator.store import trees

        return trees.tree_entries(self, self.repo[head].tree)  # type: ignore[attr-defined]

    def head_paths(self) -> dict[str, ObjectID]:
        """path → blob sha of every file in HEAD's tree (empty without commits)."""
        return {path: sha for path, (sha, _mode) in self.head_entries().items()}

    def read_blob(self, sha: ObjectID) -> bytes:
        """The content of a stored blob."""
        from gitcurator.store import objects

        return objects.read_blob(self, sha)

    def file_entry(self, path: str, sha: ObjectID, mode: int) -> FileEntry:
        """A FileEntry from a stored blob (large blobs are sized, not loaded)."""
        from gitcurator.store import objects

        return objects.stored_file_entry(self, path, sha, mode)

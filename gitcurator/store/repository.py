"""Everything gitcurator does to a git repository, through dulwich (the only dulwich import).

This is gitcurator's porcelain: it opens and creates repositories, stages a work tree into
objects, commits, and reads the index, without the `git` binary.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from dulwich.errors import NotGitRepository
from dulwich.ignore import IgnoreFilterManager
from dulwich.index import Index, IndexEntry, commit_tree, index_entry_from_stat
from dulwich.objects import Blob, Commit, ObjectID, ShaFile, Tree
from dulwich.refs import Ref
from dulwich.repo import Repo

from gitcurator.errors import NotARepository, StoreError
from gitcurator.skills.document import has_ancestor_in
from gitcurator.skills.files import MAX_LOADED_BYTES, FileEntry, FileTree
from gitcurator.statefiles import TREE_CACHE, read_json, state_folder, write_json

DEFAULT_BRANCH = "main"
_FILE_MODE = 0o100644
_EXEC_MODE = 0o100755
_LINK_MODE = 0o120000
_GITLINK_MODE = 0o160000


@dataclass(frozen=True, slots=True)
class StagedFile:
    """A file as the work tree has it, ready to become an index entry."""

    path: str
    mode: int
    sha: ObjectID
    stat: os.stat_result


class _Batch:
    """Collects new objects so they are written as one pack instead of thousands of loose files."""

    def __init__(self) -> None:
        self.objects: dict[ObjectID, ShaFile] = {}

    def add_object(self, obj: ShaFile) -> None:
        self.objects[obj.id] = obj

    def __contains__(self, sha: bytes) -> bool:
        return sha in self.objects


@dataclass(frozen=True, slots=True)
class WorktreeScan:
    """What `git add -A` would stage: the files and their blobs."""

    files: list[StagedFile]
    batch: _Batch

    def add(self, full: str, rel: str) -> None:
        """Stage one more file (one written after the scan)."""
        self.files.append(_stage_file(full, rel, self.batch))
        self.files.sort(key=lambda f: f.path)

    def file_entry(self, staged: StagedFile) -> FileEntry:
        """The staged file as validation sees it."""
        data = self.batch.objects[staged.sha].as_raw_string()
        if staged.mode == _LINK_MODE:
            return FileEntry(staged.path, len(data), link_target=os.fsdecode(data))
        loaded = data if len(data) <= MAX_LOADED_BYTES else None
        return FileEntry(staged.path, len(data), staged.mode == _EXEC_MODE, data=loaded)


def _stage_file(full: str, rel: str, batch: _Batch) -> StagedFile:
    st = os.lstat(full)
    if stat.S_ISLNK(st.st_mode):
        blob = Blob.from_string(os.fsencode(os.readlink(full)))
        mode = _LINK_MODE
    else:
        with open(full, "rb") as f:
            blob = Blob.from_string(f.read())
        mode = _EXEC_MODE if st.st_mode & 0o111 else _FILE_MODE
    batch.add_object(blob)
    return StagedFile(rel, mode, blob.id, st)


@dataclass(frozen=True, slots=True)
class WorktreeChanges:
    """Work-tree files that differ from HEAD: changed or new (staged as blobs) and removed."""

    changed: list[StagedFile]
    removed: list[str]
    batch: _Batch

    @property
    def paths(self) -> list[str]:
        return sorted([f.path for f in self.changed] + self.removed)


def _stat_unchanged(entry: IndexEntry, st: os.stat_result) -> bool:
    mtime = entry.mtime if isinstance(entry.mtime, tuple) else (int(entry.mtime), 0)
    return (
        entry.size == st.st_size
        and mtime == (st.st_mtime_ns // 1_000_000_000, st.st_mtime_ns % 1_000_000_000)
        and entry.ino == st.st_ino
    )


class Store:
    """A skills repository opened through dulwich. Use as a context manager."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.root = Path(repo.path).resolve()

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
        self.repo.close()

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def discover(cls, start: Path) -> Store:
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
        return cls(repo)

    @classmethod
    def init(cls, path: Path) -> tuple[Store, bool]:
        """Open the repository at `path`, creating it (default branch main) if there is none."""
        path.mkdir(parents=True, exist_ok=True)
        if (path / ".git").exists():
            return cls(Repo(str(path))), False
        repo = Repo.init(str(path), default_branch=DEFAULT_BRANCH.encode())
        return cls(repo), True

    # -- refs ----------------------------------------------------------------------------

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

    def hooks_dir(self) -> Path:
        """Where git looks for hooks: core.hooksPath if set, else .git/hooks."""
        configured = _config_str(self.repo.get_config_stack(), b"core", b"hooksPath")
        if configured:
            path = Path(os.path.expanduser(configured))
            return path if path.is_absolute() else self.root / path
        return Path(self.repo.controldir()) / "hooks"

    def default_branch(self) -> str:
        """The branch curator passes start from and merge into: the checked-out one, unless
        HEAD is detached or on a curator/* branch, then `main` (or `master`)."""
        current = self.head_branch()
        if current and not current.startswith("curator/"):
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

    # -- work tree -----------------------------------------------------------------------

    def walk_worktree(self) -> Iterator[tuple[str, str]]:
        """(absolute path, repo-relative posix path) of every file `git add -A` would see.

        Ignore rules are honoured, `.git` and nested repositories are left out, and a symlink
        to a folder is a file (as git records it).
        """
        ignore = IgnoreFilterManager.from_repo(self.repo)
        # dulwich's matcher costs ~0.1 ms a path; skip it where no ignore file can apply.
        everywhere = self._has_global_ignores()
        checked_dirs: dict[str, bool] = {}
        root = str(self.root)
        for dirpath, dirnames, filenames in os.walk(root):
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            rel_dir = "" if rel_dir == "." else rel_dir + "/"
            check = (
                everywhere
                or checked_dirs.get(rel_dir.rstrip("/").rpartition("/")[0], False)
                or ".gitignore" in filenames
            )
            checked_dirs[rel_dir.rstrip("/")] = check
            keep = []
            for d in sorted(dirnames):
                full = os.path.join(dirpath, d)
                if d == ".git" or os.path.exists(os.path.join(full, ".git")):
                    continue
                if os.path.islink(full):
                    filenames.append(d)
                elif not (check and ignore.is_ignored(rel_dir + d + "/")):
                    keep.append(d)
            dirnames[:] = keep
            for name in filenames:
                rel = rel_dir + name
                if not (check and ignore.is_ignored(rel)):
                    yield os.path.join(dirpath, name), rel

    def _has_global_ignores(self) -> bool:
        exclude = Path(self.repo.controldir()) / "info" / "exclude"
        if exclude.exists() and any(
            ln.strip() and not ln.startswith("#")
            for ln in exclude.read_text("utf-8", "replace").splitlines()
        ):
            return True
        config = self.repo.get_config_stack()
        if _config_str(config, b"core", b"excludesFile"):
            return True
        xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
        return os.path.exists(os.path.join(xdg, "git", "ignore"))

    def scan_worktree(self) -> WorktreeScan:
        """Stage every file `git add -A` would, as blobs held in memory until committed."""
        batch = _Batch()
        files = [_stage_file(full, rel, batch) for full, rel in self.walk_worktree()]
        files.sort(key=lambda f: f.path)
        return WorktreeScan(files, batch)

    def commit_scan(self, scan: WorktreeScan, message: str) -> ObjectID:
        """Commit exactly the scanned files as the new tree of the checked-out branch.

        Objects go in as one pack; the index is rewritten to match, so `git status` is clean.
        """
        batch = scan.batch
        tree_id = commit_tree(batch, ((f.path.encode(), f.sha, f.mode) for f in scan.files))  # type: ignore[arg-type]
        parent = self.head_commit()
        commit = self.make_commit(tree_id, [parent] if parent else [], message)
        batch.add_object(commit)
        self.repo.object_store.add_objects([(o, None) for o in batch.objects.values()])
        index = self._open_index()
        index.clear()
        for f in scan.files:
            index[f.path.encode()] = index_entry_from_stat(f.stat, f.sha, f.mode)
        index.write()
        self._advance_head(parent, commit.id)
        return commit.id

    def commit_new_file(self, path: str, data: bytes, message: str) -> ObjectID:
        """Write `path` to the work tree and commit it on top of HEAD, leaving all else as is."""
        from dulwich.object_store import commit_tree_changes

        parent = self.head_commit()
        if parent is None:
            raise StoreError("commit_new_file needs a repository with at least one commit")
        full = self.root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(data)
        blob = Blob.from_string(data)
        self.repo.object_store.add_object(blob)
        base_tree = self.repo[parent].tree  # type: ignore[attr-defined]
        tree = commit_tree_changes(
            self.repo.object_store,
            base_tree,
            [(path.encode(), _FILE_MODE, blob.id)],
        )
        commit = self.make_commit(tree, [parent], message)
        self.repo.object_store.add_object(commit)
        index = self._open_index()
        index[path.encode()] = index_entry_from_stat(os.lstat(full), blob.id, _FILE_MODE)
        index.write()
        self._advance_head(parent, commit.id)
        return commit.id

    def worktree_changes(self, folders: set[str]) -> WorktreeChanges:
        """Files added, modified or removed under `folders`, work tree against HEAD.

        A file whose index entry matches both HEAD and its stat is not re-read, so a large
        library with a few edits costs a walk and a handful of hashes.
        """
        head = self.head_entries()
        index = self._open_index()
        batch = _Batch()
        changed: list[StagedFile] = []
        seen: set[str] = set()
        for full, rel in self.walk_worktree():
            if not has_ancestor_in(rel, folders):
                continue
            seen.add(rel)
            known = head.get(rel)
            entry = index[rel.encode()] if known and rel.encode() in index else None
            if (
                known
                and isinstance(entry, IndexEntry)
                and entry.sha == known[0]
                and _stat_unchanged(entry, os.lstat(full))
            ):
                continue
            staged = _stage_file(full, rel, batch)
            if known != (staged.sha, staged.mode):
                changed.append(staged)
        removed = sorted(p for p in head if has_ancestor_in(p, folders) and p not in seen)
        return WorktreeChanges(changed, removed, batch)

    def commit_changes(self, changes: WorktreeChanges, message: str) -> ObjectID:
        """Commit exactly these changes on top of HEAD and update their index entries."""
        from dulwich.object_store import commit_tree_changes

        parent = self.head_commit()
        self.repo.object_store.add_objects([(o, None) for o in changes.batch.objects.values()])
        edits: list[tuple[bytes, int | None, ObjectID | None]] = [
            (f.path.encode(), f.mode, f.sha) for f in changes.changed
        ]
        edits += [(p.encode(), None, None) for p in changes.removed]
        base = self.repo[parent].tree if parent else None  # type: ignore[attr-defined]
        if base is None:
            base = Tree()
            self.repo.object_store.add_object(base)
            base = base.id
        tree = commit_tree_changes(self.repo.object_store, base, edits)
        commit = self.make_commit(tree, [parent] if parent else [], message)
        self.repo.object_store.add_object(commit)
        index = self._open_index()
        for f in changes.changed:
            index[f.path.encode()] = index_entry_from_stat(f.stat, f.sha, f.mode)
        for path in changes.removed:
            if path.encode() in index:
                del index[path.encode()]
        index.write()
        self._advance_head(parent, commit.id)
        return commit.id

    def head_entries(self) -> dict[str, tuple[ObjectID, int]]:
        """path -> (blob id, mode) of every file in HEAD's tree (empty without commits)."""
        head = self.head_commit()
        if head is None:
            return {}
        return self.tree_entries(self.repo[head].tree)  # type: ignore[attr-defined]

    def tree_entries(self, tree: ObjectID) -> dict[str, tuple[ObjectID, int]]:
        """path -> (blob id, mode) of every file under `tree`.

        Reading 10,000 skill folders costs 20,000 tree objects (seconds in dulwich), so the
        listing of the last tree asked for is cached in .git/ and moved to a new tree by
        diffing the two, which only descends into the folders that changed.
        """
        from dulwich.diff_tree import tree_changes
        from dulwich.object_store import iter_tree_contents

        cache = state_folder(Path(self.repo.commondir())) / TREE_CACHE
        old_tree, entries = _read_tree_cache(cache)
        if old_tree == tree.decode():
            return entries
        if old_tree is None:
            entries = {
                e.path.decode("utf-8", "surrogateescape"): (e.sha, e.mode)
                for e in iter_tree_contents(self.repo.object_store, tree)
            }
        else:
            for change in tree_changes(self.repo.object_store, ObjectID(old_tree.encode()), tree):
                if change.old is not None and change.old.path is not None:
                    entries.pop(change.old.path.decode("utf-8", "surrogateescape"), None)
                if change.new is not None and change.new.path is not None:
                    entries[change.new.path.decode("utf-8", "surrogateescape")] = (
                        change.new.sha,
                        change.new.mode,
                    )
        _write_tree_cache(cache, tree.decode(), entries)
        return entries

    def _advance_head(self, old: ObjectID | None, new: ObjectID) -> None:
        """Move the checked-out branch from `old` to `new`, refusing if someone moved it."""
        branch = self.repo.refs.get_symrefs().get(Ref(b"HEAD")) or Ref(b"HEAD")
        # dulwich treats old=None as "set unconditionally"; creation must not overwrite.
        moved = (
            self.repo.refs.add_if_new(branch, new)
            if old is None
            else self.repo.refs.set_if_equals(branch, old, new)
        )
        if not moved:
            raise StoreError("the branch moved while gitcurator was committing; run it again")

    def make_commit(self, tree: ObjectID, parents: list[ObjectID], message: str) -> Commit:
        """An unstored commit with the configured identity and git's date variables."""
        commit = Commit()
        commit.tree = tree
        commit.parents = parents
        identity = self._identity()
        commit.author = commit.committer = identity
        commit.author_time = _env_time("GIT_AUTHOR_DATE")
        commit.commit_time = _env_time("GIT_COMMITTER_DATE")
        commit.author_timezone = commit.commit_timezone = 0
        commit.encoding = b"UTF-8"
        commit.message = message.encode("utf-8")
        return commit

    def _identity(self) -> bytes:
        name = os.environ.get("GIT_COMMITTER_NAME") or os.environ.get("GIT_AUTHOR_NAME")
        email = os.environ.get("GIT_COMMITTER_EMAIL") or os.environ.get("GIT_AUTHOR_EMAIL")
        config = self.repo.get_config_stack()
        if not name:
            name = _config_str(config, b"user", b"name") or "gitcurator"
        if not email:
            email = _config_str(config, b"user", b"email") or "gitcurator@localhost"
        return f"{name} <{email}>".encode()

    def _open_index(self) -> Index:
        # git runs hooks of `commit -a` / `commit PATH` with a temporary index named here.
        alt = os.environ.get("GIT_INDEX_FILE")
        if alt:
            return Index(os.path.abspath(alt))
        return self.repo.open_index()

    def worktree_tree(self) -> FileTree:
        """The work tree as a FileTree; files are read when a check asks for them."""
        where: dict[str, str] = {}
        links: dict[str, str] = {}
        for full, rel in self.walk_worktree():
            where[rel] = full
            if os.path.islink(full):
                links[rel] = os.readlink(full)
        return FileTree(tuple(sorted(where)), links, lambda p: _read_file(where[p], p))

    def scan_tree(self, scan: WorktreeScan) -> FileTree:
        """A scan (see scan_worktree) as a FileTree, so what is checked is what gets committed."""
        by_path = {f.path: f for f in scan.files}
        links = {
            f.path: os.fsdecode(scan.batch.objects[f.sha].as_raw_string())
            for f in scan.files
            if f.mode == _LINK_MODE
        }
        return FileTree(tuple(sorted(by_path)), links, lambda p: scan.file_entry(by_path[p]))

    def staged_tree(self) -> FileTree:
        """What is staged for the next commit (honours GIT_INDEX_FILE, as git's hooks need)."""
        entries = {path: (sha, mode) for path, sha, mode in self.staged_entries()}
        links = {
            p: os.fsdecode(self.repo.object_store[sha].as_raw_string())
            for p, (sha, mode) in entries.items()
            if mode == _LINK_MODE
        }

        def load(path: str) -> FileEntry:
            sha, mode = entries[path]
            return self.file_entry(path, sha, mode)

        return FileTree(tuple(sorted(entries)), links, load)

    # -- reading the index ---------------------------------------------------------------

    def staged_entries(self) -> Iterator[tuple[str, ObjectID, int]]:
        """(path, blob sha, mode) of every stage-0 entry of the index."""
        index = self._open_index()
        for path, entry in index.items():
            if isinstance(entry, IndexEntry):
                yield path.decode("utf-8", "surrogateescape"), entry.sha, entry.mode

    def head_paths(self) -> dict[str, ObjectID]:
        """path → blob sha of every file in HEAD's tree (empty without commits)."""
        return {path: sha for path, (sha, _mode) in self.head_entries().items()}

    def read_blob(self, sha: ObjectID) -> bytes:
        """The content of a stored blob."""
        return bytes(self.repo.object_store[sha].as_raw_string())

    def file_entry(self, path: str, sha: ObjectID, mode: int) -> FileEntry:
        """A FileEntry from a stored blob (large blobs are sized, not loaded)."""
        if mode == _GITLINK_MODE:
            return FileEntry(path, 0)
        obj = self.repo.object_store[sha]
        data = obj.as_raw_string()
        if mode == _LINK_MODE:
            return FileEntry(path, len(data), link_target=data.decode("utf-8", "surrogateescape"))
        loaded = data if len(data) <= MAX_LOADED_BYTES else None
        return FileEntry(path, len(data), executable=mode == _EXEC_MODE, data=loaded)


def _env_time(var: str) -> int:
    """Seconds since the epoch for a commit: now, or the date git's variable sets (tests and
    replays date commits the way they date git's own)."""
    value = os.environ.get(var, "").strip()
    if not value:
        return int(time.time())
    epoch = value.lstrip("@").split()[0]
    if epoch.isdigit():
        return int(epoch)
    from gitcurator.timeutil import parse_time

    return int(parse_time(value, var).timestamp())


def _read_tree_cache(path: Path) -> tuple[str | None, dict[str, tuple[ObjectID, int]]]:
    doc = read_json(path)
    try:
        return doc["tree"], {p: (ObjectID(s.encode()), m) for p, (s, m) in doc["entries"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None, {}


def _write_tree_cache(path: Path, tree: str, entries: dict[str, tuple[ObjectID, int]]) -> None:
    write_json(
        path, {"tree": tree, "entries": {p: (s.decode(), m) for p, (s, m) in entries.items()}}
    )


def _read_file(full: str, rel: str) -> FileEntry:
    st = os.lstat(full)
    if stat.S_ISLNK(st.st_mode):
        return FileEntry(rel, st.st_size, link_target=os.readlink(full))
    data = None
    if st.st_size <= MAX_LOADED_BYTES:
        with open(full, "rb") as f:
            data = f.read()
    return FileEntry(rel, st.st_size, bool(st.st_mode & 0o111), data=data)


def _config_str(config: object, section: bytes, key: bytes) -> str | None:
    try:
        value = config.get(section, key)  # type: ignore[attr-defined]
    except KeyError:
        return None
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else None

"""Builders for the store's tests: a small library made with real git, and diverged branches."""

from __future__ import annotations

import os
from pathlib import Path

from support.passes import commit
from support.repos import git, write_skill

ARCHIVE_BETA = "mkdir -p .archive && git mv beta .archive/beta"


def make_library(root: Path) -> Path:
    """A git repository (real git) at `root` with skills alpha, beta (and a support file under
    beta/references) and devops/gamma, committed on main."""
    root.mkdir()
    git("init", "-q", "-b", "main", cwd=root)
    write_skill(root, "alpha")
    write_skill(root, "beta")
    write_skill(root, "devops/gamma")
    (root / "beta" / "references").mkdir()
    (root / "beta" / "references" / "notes.md").write_text("notes\n")
    commit(root, "start", allow_empty=True)
    return root


def tree_of(repo: Path, rev: str) -> bytes:
    """The root tree id of `rev`, as git gives it."""
    return git("rev-parse", f"{rev}^{{tree}}", cwd=repo).stdout.strip().encode()


def rev(repo: Path, name: str) -> bytes:
    """The commit id `name` resolves to, as git gives it."""
    return git("rev-parse", name, cwd=repo).stdout.strip().encode()


def diverge(lib: Path, ours: str, theirs: str) -> tuple[bytes, bytes, bytes]:
    """Run shell snippets on two branches from main (`theirs` on branch theirs, `ours` on
    main), a commit each; the (base, ours, theirs) trees."""
    base = tree_of(lib, "main")
    git("checkout", "-q", "-b", "theirs", cwd=lib)
    os.system(f"cd '{lib}' && {theirs}")
    commit(lib, "theirs", allow_empty=True)
    git("checkout", "-q", "main", cwd=lib)
    os.system(f"cd '{lib}' && {ours}")
    commit(lib, "ours", allow_empty=True)
    return base, tree_of(lib, "main"), tree_of(lib, "theirs")

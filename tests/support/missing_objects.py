"""A repository missing one object, as a fetch that did not bring it leaves one."""

from __future__ import annotations

from pathlib import Path

from support.repos import git


def drop_blob(repo: Path, path: str) -> str:
    """Commit an edit of `path` with plain git (a loose object), then delete that blob's
    object; returns its id."""
    file = repo / path
    file.write_text(file.read_text(encoding="utf-8") + "\nedited\n", encoding="utf-8")
    git("commit", "-qam", "edit", "--no-verify", cwd=repo)
    blob = git("rev-parse", f"HEAD:{path}", cwd=repo).stdout.strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    return blob

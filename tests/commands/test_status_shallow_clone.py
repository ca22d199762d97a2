"""A clone that holds only part of the notes' history (`git clone --depth 1`, the notes
fetched at --depth 1) or a notes commit with a forged time: status, list and report --html
answer from what there is, never with an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git, run_cli


def _used_twice(repo: Path) -> None:
    for _ in range(2):
        assert run_cli("record", "use", "pdf-extract", "-C", str(repo)).code == 0
        assert run_cli("flush", "-C", str(repo)).code == 0


def test_a_shallow_clone_with_shallow_notes_reads(repo: Path, tmp_path: Path) -> None:
    # The parent of the one notes commit fetched is missing: a KeyError, exit 3, for status
    # and list (the notes' recent messages) and report --html (the uses per week).
    _used_twice(repo)
    shallow = tmp_path / "shallow"
    git("clone", "-q", "--depth", "1", repo.as_uri(), str(shallow), cwd=tmp_path)
    notes = "refs/notes/gitcurator"
    git("fetch", "-q", "--depth", "1", "origin", f"{notes}:{notes}", cwd=shallow)
    for args in (("status",), ("list",), ("report", "--html")):
        done = run_cli(*args, "-C", str(shallow))
        assert done.code == 0, (args, done)


def test_a_notes_commit_dated_past_the_year_9999_counts_in_no_week(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its time was an OverflowError (exit 3); the commits under it still count.
    _used_twice(repo)
    notes = "refs/notes/gitcurator"
    tree = git("rev-parse", f"{notes}^{{tree}}", cwd=repo).stdout.strip()
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@9999999999999 +0000")
    forged = git("commit-tree", tree, "-p", notes, "-m", "forged", cwd=repo).stdout.strip()
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    git("update-ref", notes, forged, cwd=repo)
    done = run_cli("report", "--html", "-C", str(repo))
    assert done.code == 0, done
    assert "pdf-extract, week of" in Path(done.out.strip()).read_text()

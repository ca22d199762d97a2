"""store.graph: ancestry and merge bases walked by parents, whatever the commit times."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.passes import commit
from support.repos import git
from support.stores import rev

from gitcurator.store import Store, graph


def test_merge_bases_and_ancestry_ignore_commit_times(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Passes and merges often share a second; dulwich's time-ordered merge-base then
    answered wrongly. Every commit here has the same time; git is the reference."""
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, "@1767225600 +0000")
    start = git("rev-parse", "HEAD", cwd=lib).stdout.strip()
    for n in range(1, 4):
        git("checkout", "-q", "-b", f"b{n}", start, cwd=lib)
        for part in ("a", "b"):  # a pass: archive, then report
            (lib / f"f{n}{part}").write_text(f"{n}\n")
            commit(lib, f"b{n}{part}", allow_empty=True)
    git("checkout", "-q", "main", cwd=lib)
    pairs = [("b1", "b2"), ("b2", "b1"), ("b3", "b1")]
    git("merge", "-q", "--ff-only", "b1", cwd=lib)
    git("merge", "-q", "--no-ff", "-m", "merge b2", "b2", cwd=lib)
    git("checkout", "-q", "-b", "side", "b3", cwd=lib)
    git("merge", "-q", "--no-ff", "-m", "merge b1", "b1", cwd=lib)
    pairs += [("b2", "main"), ("b3", "main"), ("side", "main"), ("main", "side"), ("b1", "b1")]
    for a, b in pairs:
        expected = sorted(git("merge-base", "--all", a, b, cwd=lib).stdout.split())
        bases = graph.merge_bases(store, rev(lib, a), rev(lib, b))
        assert [x.decode() for x in bases] == expected
    merged = graph.ancestors(store, [rev(lib, "main")])
    assert {rev(lib, "b1"), rev(lib, "b2"), rev(lib, start)} <= merged
    assert rev(lib, "b3") not in merged
    own = graph.commits_between(store, rev(lib, "side"), merged)
    assert [c.message.strip() for c in own] == ["merge b1", "b3b", "b3a"]

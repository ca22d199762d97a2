"""A pass over a big library without caches reads its reference candidates and its catalogue
in children beside the records' load: the pass it plans and the branch it writes are the
ones planned alone, and a child that fails costs only its head start."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from support.children import drop_caches, failing_in_children, logged
from support.repos import git, run_cli

from gitcurator import forked
from gitcurator.curation import reads_beside
from gitcurator.references import scan

NOW = "2030-01-01T00:00:00Z"  # pdf-extract, agent-made and never used, is archived


def _pass(base: Path, dry: bool, copy: Path) -> tuple[object, str]:
    """The pass over a copy of `base` without any cache: each starts from the same state."""
    shutil.copytree(base, copy, symlinks=True)
    repo = copy
    drop_caches(repo)
    ran = run_cli("run", "--now", NOW, "--json", *(["--dry-run"] if dry else []), "-C", str(repo))
    assert ran.code == 0, ran.err
    doc = json.loads(ran.out)
    if dry:
        return doc, ""
    tree = git("rev-parse", f"{doc['branch']}^{{tree}}", cwd=repo).stdout.strip()
    return doc, tree


@pytest.mark.parametrize("children_fail", [False, True])
def test_a_cold_pass_beside_its_children_is_the_pass_alone(
    agent_repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, children_fail: bool
) -> None:
    skill = agent_repo / "docker-build" / "SKILL.md"
    if not skill.exists():
        skill = next(agent_repo.glob("**/docker-build/SKILL.md"))
    # A reference for the scan to find: another skill's prose names pdf-extract.
    skill.write_text(skill.read_text() + "\nAfter the build, use `pdf-extract` on the logs.\n")
    git("commit", "-qam", "docker-build mentions pdf-extract", cwd=agent_repo)
    log = tmp_path / "children"
    monkeypatch.setattr(scan, "scan_entries", logged(log, scan.scan_entries))
    monkeypatch.setattr(reads_beside, "described_blobs", logged(log, reads_beside.described_blobs))
    alone = [_pass(agent_repo, True, tmp_path / "1"), _pass(agent_repo, False, tmp_path / "2")]
    log.unlink(missing_ok=True)
    monkeypatch.setattr(reads_beside, "_BESIDE_ABOVE", 0)
    monkeypatch.setattr(forked.os, "cpu_count", lambda: 2)
    if children_fail:
        targets = (scan, "scan_entries"), (reads_beside, "described_blobs")
        failing_in_children(monkeypatch, *targets)
    beside = [_pass(agent_repo, True, tmp_path / "3"), _pass(agent_repo, False, tmp_path / "4")]
    assert beside == alone
    # The scan's find kept pdf-extract, which is due for archive, in the pass.
    assert "referred to by devops/docker-build/SKILL.md" in json.dumps(alone[0][0])
    pids = [int(x) for x in log.read_text().split()] if log.exists() else []
    children = [pid for pid in pids if pid != os.getpid()]
    if children_fail:
        assert children == []  # each failed before its work: the pass did all of it itself
    else:
        # Two passes, each with its scan's two halves and its catalogue read in children.
        assert len(children) == 6 and len(set(children)) == 6


class _Share:
    def __init__(self, found: dict[str, list[tuple[str, str, int]] | str] | None) -> None:
        self.found = found

    def candidates(self) -> dict[str, list[tuple[str, str, int]] | str] | None:
        return self.found


def test_the_shares_candidates_join_and_a_failed_share_is_left_to_the_caller() -> None:
    a = {"1" * 40: [("backticks", "pdf-extract", 3)]}
    b = {"2" * 40: "a binary file"}
    both = reads_beside.joined_candidates(_Share(a), _Share(b))  # type: ignore[arg-type]
    assert both == {**a, **b}
    # The half whose child failed is not among them: the caller reads those files itself.
    assert reads_beside.joined_candidates(_Share(a), _Share(None)) == a  # type: ignore[arg-type]
    assert reads_beside.joined_candidates(_Share(None), _Share(None)) is None  # type: ignore[arg-type]

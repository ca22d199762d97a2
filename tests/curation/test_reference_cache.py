"""The scan's candidates cached by blob: a second scan reads no file, a damaged cache is read
past, a dry run writes none."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from support.references import committed_library, ok
from support.repos import git, run_cli

from gitcurator.curation.reference_cache import _VERSION, tree_references
from gitcurator.library import open_repo
from gitcurator.skills.document import find_skills
from gitcurator.statefiles import REFERENCES_CACHE
from gitcurator.store import ObjectID

SKILLS = {"pdf-forms": "Forms.", "pdf-merge": "Merge; see `pdf-forms`."}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return committed_library(
        tmp_path / "lib", monkeypatch, SKILLS, {"AGENTS.md": "Use /pdf-merge.\n"}
    )


def _scan(repo: Path) -> tuple[list[str], int]:
    """Who refers to what, and how many blobs the scan read."""
    with open_repo(repo) as lib:
        reads = 0
        original = lib.store.read_blob

        def counting(sha: ObjectID) -> bytes:
            nonlocal reads
            reads += 1
            return original(sha)

        lib.store.read_blob = counting  # type: ignore[method-assign]
        entries = lib.store.head_entries()
        graph = tree_references(lib.store, lib.config, entries, find_skills(entries), {})
    return [f"{r.source}->{r.target}" for r in graph.references], reads


def _cache(repo: Path) -> Path:
    return repo / ".git/gitcurator" / REFERENCES_CACHE


def test_a_second_scan_reads_nothing_and_a_damaged_cache_is_read_past(repo: Path) -> None:
    first, reads = _scan(repo)
    assert first == ["AGENTS.md->pdf-merge", "pdf-merge->pdf-forms"] and reads == 3
    assert _scan(repo) == (first, 0)
    header, _, text = _cache(repo).read_text().partition("\n")
    edited = json.dumps({key: [["backticks", 7, "x"]] for key in json.loads(text)})
    _cache(repo).write_text(f"{header}\n{edited}")
    assert _scan(repo) == (first, 3)
    _cache(repo).write_text("{truncated")
    assert _scan(repo) == (first, 3)


def test_a_dry_run_writes_no_cache_and_refs_does(repo: Path) -> None:
    ok(repo, "run", "--dry-run")
    assert not _cache(repo).exists()
    ok(repo, "refs", "pdf-forms")
    assert _cache(repo).exists()


def _forge(repo: Path, text: str) -> None:
    """A cache whose digest matches `text` (what a tool recomputing it would write)."""
    digest = hashlib.sha1(text.encode()).hexdigest()
    _cache(repo).write_text(json.dumps({"version": _VERSION, "sha1": digest}) + "\n" + text)


@pytest.mark.parametrize(
    "forged",
    [
        lambda keys: json.dumps({k: [["link", None, 1], [1, 2, "x"]] for k in keys}),
        lambda keys: json.dumps({k: 5 for k in keys}),
        lambda keys: json.dumps({k: {"kind": "link"} for k in keys}),
        lambda keys: '{"a": [1',
    ],
)
def test_a_cache_whose_digest_matches_but_holds_no_candidates_is_read_past(
    repo: Path, forged: Callable[[list[str]], str]
) -> None:
    first, _ = _scan(repo)
    _, _, text = _cache(repo).read_text().partition("\n")
    _forge(repo, forged(list(json.loads(text))))
    assert _scan(repo) == (first, 3)  # it was an internal error (exit 3)
    assert _scan(repo) == (first, 0)  # and the cache is whole again
    _forge(repo, forged(list(json.loads(text))))
    assert run_cli("refs", "pdf-forms", "-C", str(repo)).code == 0


def test_a_pass_says_which_reference_files_it_could_not_read(repo: Path) -> None:
    # Unread, CLAUDE.md keeps nothing from the archive: the pass must say so, not be silent.
    (repo / "CLAUDE.md").write_bytes(b"Use `pdf-forms`.\n\xff\xfe\n")
    git("add", "CLAUDE.md", cwd=repo)
    git("commit", "-qm", "claude", cwd=repo)
    result = run_cli("run", "--dry-run", "-C", str(repo))
    assert result.code == 0, result
    assert "gitcurator: warning: CLAUDE.md: skipped, not UTF-8 text" in result.err


def test_a_reference_from_a_folder_whose_name_is_not_utf8_is_cached_and_read_back(
    repo: Path,
) -> None:
    # git stores any bytes as a name: the graph's source is then a str with a lone surrogate,
    # which the cache's UTF-8 text could not hold (refs and every pass exited 3).
    odd = os.path.join(os.fsencode(repo), b"caf\xe9")
    os.mkdir(odd)
    with open(os.path.join(odd, b"SKILL.md"), "wb") as file:
        file.write(b"---\nname: cafe\ndescription: Cafe menus.\n---\nSee `pdf-forms`.\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "cafe", cwd=repo)
    source = os.fsdecode(b"caf\xe9")
    first, reads = _scan(repo)
    assert f"{source}->pdf-forms" in first and reads == 4
    assert _scan(repo) == (first, 0)  # kept, and read back as it was
    done = run_cli("refs", "pdf-forms", "-C", str(repo))
    assert done.code == 0, done.err
    assert run_cli("run", "-C", str(repo)).code == 0

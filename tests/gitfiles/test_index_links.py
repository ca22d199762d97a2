"""gitfiles/index_links: the index's submodule links read from the file git wrote, as dulwich
reads them, for every index version git writes; anything else is left to dulwich."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.repos import git, write_skill

from gitcurator import statefiles
from gitcurator.gitfiles.index_links import index_links, scan_links
from gitcurator.store import Store
from gitcurator.store.index_gitlinks import index_gitlinks


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    """A repository whose index holds links (one with a long name), a file staged with
    intent to add (extended flags), and a link only in a conflict's stages."""
    root = tmp_path / "lib"
    write_skill(root, "tools/pdf-extract")
    write_skill(root, "plain")
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "skills", cwd=root)
    head = git("rev-parse", "HEAD", cwd=root).stdout.strip()
    long_name = "deep/" + "x" * 4200 + "/vendored"
    for path in ("vendored", "tools/café-link", long_name):
        git("update-index", "--add", "--cacheinfo", f"160000,{head},{path}", cwd=root)
    (root / "later.md").write_text("later\n")
    git("add", "-N", "later.md", cwd=root)
    blob = git("hash-object", "-w", "later.md", cwd=root).stdout.strip()
    entries = f"160000 {head} 2\tconflicted\n100644 {blob} 3\tconflicted\n"
    subprocess.run(
        ["git", "update-index", "--index-info"], cwd=root, input=entries, text=True, check=True
    )
    return root


def _git(root: Path) -> set[str]:
    """The stage-0 links as git itself lists them."""
    listed = git("ls-files", "--stage", "-z", cwd=root).stdout.split("\0")
    return {e.split("\t", 1)[1] for e in listed if e.startswith("160000 ") and " 0\t" in e}


def _dulwich(root: Path) -> set[str]:
    cache = root / ".git" / statefiles.STATE_DIR / statefiles.INDEX_LINKS_CACHE
    cache.unlink(missing_ok=True)
    with Store.discover(root) as store:
        return index_gitlinks(store)


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_every_version_reads_as_dulwich_reads_it(lib: Path, version: str) -> None:
    git("update-index", "--index-version", version, cwd=lib)
    data = (lib / ".git" / "index").read_bytes()
    found = scan_links(data)
    assert found is not None and len(found) == 3
    assert found == _git(lib)
    # dulwich 1.2 misreads a name longer than 4095 bytes (a checksum error): without it, the
    # two readers agree.
    git("rm", "-q", "--cached", next(p for p in found if p.startswith("deep/")), cwd=lib)
    assert scan_links((lib / ".git" / "index").read_bytes()) == _git(lib) == _dulwich(lib)


def test_a_form_it_does_not_take_is_left_to_dulwich(lib: Path) -> None:
    data = (lib / ".git" / "index").read_bytes()
    assert scan_links(data[:-1] + bytes([data[-1] ^ 1])) is None  # the trailing hash is wrong
    assert scan_links(data[: len(data) // 2]) is None
    assert scan_links(b"") is None
    git("update-index", "--split-index", cwd=lib)
    assert scan_links((lib / ".git" / "index").read_bytes()) is None  # entries elsewhere


def test_a_missing_index_has_no_links(tmp_path: Path) -> None:
    assert index_links(str(tmp_path / "index"), tmp_path / "cache.json") == set()


def test_an_entry_cut_short_under_a_correct_hash_is_no_answer_not_a_crash(lib: Path) -> None:
    # Found by fuzzing: struct.error (which is no ValueError) escaped, an exit 3.
    import hashlib

    data = (lib / ".git" / "index").read_bytes()[:-20]
    for cut in range(13, len(data), 7):
        body = data[:cut]
        assert scan_links(body + hashlib.sha1(body).digest()) in (None, set())

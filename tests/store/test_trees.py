"""store.trees: listing trees (with the cache), looking into them and editing them."""

from __future__ import annotations

import json
from pathlib import Path

from support.passes import commit
from support.repos import git
from support.stores import rev, tree_of

from gitcurator.store import Store, trees


def _ls_tree(lib: Path, tree: bytes) -> dict[str, tuple[bytes, int]]:
    out = git("ls-tree", "-r", tree.decode(), cwd=lib).stdout
    found = {}
    for line in out.splitlines():
        meta, path = line.split("\t")
        mode, _kind, sha = meta.split()
        found[path] = (sha.encode(), int(mode, 8))
    return found


def test_the_listing_is_git_s_and_the_cache_follows_a_new_tree(lib: Path, store: Store) -> None:
    first = tree_of(lib, "HEAD")
    assert trees.tree_entries(store, first) == _ls_tree(lib, first)
    cache = lib / ".git" / "gitcurator" / "tree-cache.json"
    assert json.loads(cache.read_text())["tree"] == first.decode()
    git("mv", "beta", "gone", cwd=lib)
    (lib / "alpha" / "SKILL.md").chmod(0o755)
    commit(lib, "move and chmod")
    second = tree_of(lib, "HEAD")
    assert trees.tree_entries(store, second) == _ls_tree(lib, second)
    cache.write_text("{broken")
    assert trees.tree_entries(store, first) == _ls_tree(lib, first), "a bad cache is rebuilt"


def test_moving_a_folder_gives_the_tree_git_mv_gives(lib: Path, store: Store) -> None:
    moved = trees.edit_tree(
        store, tree_of(lib, "HEAD"), [("beta", ".archive/beta")], files={"new.md": b"new\n"}
    )
    (lib / ".archive").mkdir()
    git("mv", "beta", ".archive/beta", cwd=lib)
    (lib / "new.md").write_text("new\n")
    git("add", "new.md", cwd=lib)
    assert moved == git("write-tree", cwd=lib).stdout.strip().encode()


def test_copies_and_replacements_place_stored_entries(lib: Path, store: Store) -> None:
    tree = tree_of(lib, "HEAD")
    entry = trees.tree_entries(store, tree)["alpha/SKILL.md"]
    copied = trees.edit_tree(store, tree, copies={"copy/SKILL.md": entry})
    assert trees.tree_entries(store, copied)["copy/SKILL.md"] == entry
    # A file where a folder was: the folder goes first.
    replaced = trees.replace_paths(store, tree, [("beta", entry), ("beta/SKILL.md", None)])
    assert trees.tree_entries(store, replaced)["beta"] == entry
    assert not any(p.startswith("beta/") for p in trees.tree_entries(store, replaced))


def test_subtrees_files_and_removals(lib: Path, store: Store) -> None:
    tree = tree_of(lib, "HEAD")
    gamma = git("rev-parse", "HEAD:devops/gamma", cwd=lib).stdout.strip().encode()
    assert trees.subtree_id(store, tree, "devops/gamma") == gamma
    assert trees.subtree_id(store, tree, "devops/gamma/SKILL.md") is None, "a file, not a folder"
    assert trees.subtree_id(store, tree, "nowhere") is None
    head = rev(lib, "HEAD")
    assert trees.file_at(store, head, "beta/references/notes.md") == b"notes\n"
    assert trees.file_at(store, head, "beta/references") is None
    assert trees.file_at(store, head, "beta/missing.md") is None
    smaller = trees.remove_folders(store, tree, ["devops", "beta/references"])
    assert sorted(trees.tree_entries(store, smaller)) == ["alpha/SKILL.md", "beta/SKILL.md"]


def test_a_cache_of_the_wrong_shape_is_rebuilt(lib: Path, store: Store) -> None:
    # Valid JSON, wrong types: a number or a non-hex string for the tree, a mode that is no
    # number. Each read as "no cache", never an AttributeError or AssertionError (exit 3).
    tree = tree_of(lib, "HEAD")
    cache = lib / ".git" / "gitcurator" / "tree-cache.json"
    trees.tree_entries(store, tree)
    good = json.loads(cache.read_text())
    path = next(iter(good["entries"]))
    forged = [
        {"tree": 5, "entries": {}},
        {"tree": "zz", "entries": {}},
        {"tree": "0" * 39, "entries": {}},
        {**good, "tree": "a" * 40},  # another id: moved by a diff from a tree not here
        {"tree": good["tree"], "entries": {path: [good["entries"][path][0], "100644"]}},
        {"tree": good["tree"], "entries": {path: ["zz", 33188]}},
    ]
    for doc in forged:
        cache.write_text(json.dumps(doc))
        trees._LISTED.clear()
        assert trees.tree_entries(store, tree) == _ls_tree(lib, tree), doc


def test_a_cache_checked_a_column_at_a_time_refuses_each_bad_entry(lib: Path, store: Store) -> None:
    tree = tree_of(lib, "HEAD")
    cache = lib / ".git" / "gitcurator" / "tree-cache.json"
    trees.tree_entries(store, tree)
    good = json.loads(cache.read_text())
    path, (blob, mode) = next(iter(good["entries"].items()))
    for bad in (
        "ab",  # a string where a pair belongs
        [blob, mode, 0],
        [blob.upper(), mode],
        ["é" * 40, mode],
        [blob[:-1] + " ", mode],
        [blob, True],
        [blob[:39], mode],
    ):
        cache.write_text(json.dumps({**good, "entries": {**good["entries"], path: bad}}))
        trees._LISTED.clear()
        assert trees.tree_entries(store, tree) == _ls_tree(lib, tree), bad

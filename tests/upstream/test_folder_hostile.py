"""The folder merge against awkward trees: a path that is a file on one side and a folder on the
other must not come out as both (no git tree can hold that)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gitcurator.upstream.folder_merge import SYMLINK, FileEntry, merge_folder
from gitcurator.upstream.folder_renames import find_renames


def f(content: bytes, mode: int = 0o100644) -> FileEntry:
    return FileEntry(content, mode)


def no_file_is_a_folder(paths: list[str]) -> bool:
    folders = {"/".join(p.split("/")[:k]) for p in paths for k in range(1, p.count("/") + 1)}
    return not folders & set(paths)


def test_a_file_added_locally_where_upstream_added_a_folder_is_a_conflict_not_two_entries() -> None:
    result = merge_folder({}, {"a": f(b"mine\n")}, {"a/b": f(b"theirs\n")})
    assert [(c.path, c.kind) for c in result.conflicts] == [("a", "file/folder")]
    assert result.files == {"a": f(b"mine\n"), "a~upstream/b": f(b"theirs\n")}


def test_a_file_edited_locally_that_upstream_made_a_folder_keeps_both() -> None:
    result = merge_folder({"a": f(b"x\n")}, {"a": f(b"y\n")}, {"a/b": f(b"z\n")})
    assert {c.kind for c in result.conflicts} == {"modify/delete", "file/folder"}
    assert result.files == {"a": f(b"y\n"), "a~upstream/b": f(b"z\n")}


def test_a_folder_upstream_replaced_by_a_symlink_while_edited_locally() -> None:
    result = merge_folder({"d/x": f(b"x\n")}, {"d/x": f(b"y\n")}, {"d": f(b"elsewhere", SYMLINK)})
    assert result.files == {"d/x": f(b"y\n"), "d~upstream": f(b"elsewhere", SYMLINK)}
    assert "file/folder" in {c.kind for c in result.conflicts}


def test_the_aside_name_is_free() -> None:
    ours = {"a/b": f(b"1\n"), "a~upstream": f(b"2\n")}
    result = merge_folder({}, ours, {"a": f(b"3\n")})
    assert result.files == {**ours, "a~upstream2": f(b"3\n")}


paths = st.sampled_from(["a", "a/b", "a/b/c", "a/c", "b", "b/a"])
entries = st.builds(FileEntry, st.sampled_from([b"1\n", b"2\n", b"lnk"]))


def tree() -> st.SearchStrategy[dict[str, FileEntry]]:
    return st.dictionaries(paths, entries).filter(lambda d: no_file_is_a_folder(list(d)))


@given(tree(), tree(), tree())
def test_the_merged_folder_is_always_a_tree_and_keeps_every_local_path(
    base: dict[str, FileEntry], ours: dict[str, FileEntry], theirs: dict[str, FileEntry]
) -> None:
    result = merge_folder(base, ours, theirs)
    assert no_file_is_a_folder(list(result.files))
    moved = {old for old, _ in result.renames}
    for path, entry in ours.items():
        if path not in result.files and path not in moved:
            assert base.get(path) == entry and path not in theirs, path


def test_a_source_moving_thousands_of_files_finds_the_exact_renames_in_bounded_work() -> None:
    # 1,000 x 1,000 pairs compared line by line took minutes; past the limit only exact ones.
    gone = {
        f"old/{i}.md": b"".join(b"line %d %d\n" % (i, k) for k in range(50)) for i in range(1000)
    }
    new = {f"new/{i}.md": b"".join(b"row %d %d\n" % (i, k) for k in range(50)) for i in range(999)}
    new["new/moved.md"] = gone["old/7.md"]
    assert find_renames(gone, new) == [("old/7.md", "new/moved.md")]


def test_sizes_too_unequal_are_never_compared() -> None:
    assert find_renames({"a": b"x\n" * 10}, {"b": b"x\n" * 21}) == []
    assert find_renames({"a": b"x\n" * 10}, {"b": b"x\n" * 19}) == [("a", "b")]

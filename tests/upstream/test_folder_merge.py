"""The folder merge, rule by rule: one side, both sides, added, deleted, renamed, binary, modes,
symlinks; and the check that refuses entries leaving the folder."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitcurator.upstream.folder_merge import (
    EXECUTABLE,
    SYMLINK,
    FileEntry,
    FolderMerge,
    is_binary,
    merge_folder,
)
from gitcurator.upstream.folder_renames import find_renames, similarity
from gitcurator.upstream.folder_safety import unsafe_entries, unsafe_reason

SKILL = b"---\nname: s\ndescription: Use when testing.\n---\n\n1. one\n2. two\n3. three\n4. four\n"
LONG = b"".join(b"line %d of the reference\n" % i for i in range(20))


def f(content: bytes, mode: int = 0o100644) -> FileEntry:
    return FileEntry(content, mode)


def merged(base: dict[str, FileEntry], ours: dict[str, FileEntry], theirs: dict[str, FileEntry]):
    result = merge_folder(base, ours, theirs)
    assert isinstance(result, FolderMerge)
    return result


def kinds(result: FolderMerge) -> dict[str, str]:
    return {c.path: c.kind for c in result.conflicts}


def test_a_file_changed_on_one_side_takes_that_side() -> None:
    base = {"SKILL.md": f(SKILL), "a.md": f(b"a\n")}
    ours = {"SKILL.md": f(SKILL), "a.md": f(b"A\n")}
    theirs = {"SKILL.md": f(SKILL.replace(b"one", b"ONE")), "a.md": f(b"a\n")}
    result = merged(base, ours, theirs)
    assert result.clean
    assert result.files == {"SKILL.md": theirs["SKILL.md"], "a.md": ours["a.md"]}
    assert result.changed_upstream == ("SKILL.md",)


def test_text_changed_on_both_sides_merges_line_by_line() -> None:
    ours = SKILL.replace(b"1. one", b"1. one, carefully")
    theirs = SKILL.replace(b"4. four", b"4. four and five")
    result = merged({"SKILL.md": f(SKILL)}, {"SKILL.md": f(ours)}, {"SKILL.md": f(theirs)})
    assert result.clean
    assert result.files["SKILL.md"].content == SKILL.replace(
        b"1. one", b"1. one, carefully"
    ).replace(b"4. four", b"4. four and five")


def test_the_same_lines_changed_differently_conflict_with_markers() -> None:
    ours = SKILL.replace(b"2. two", b"2. deux")
    theirs = SKILL.replace(b"2. two", b"2. zwei")
    result = merged({"SKILL.md": f(SKILL)}, {"SKILL.md": f(ours)}, {"SKILL.md": f(theirs)})
    assert kinds(result) == {"SKILL.md": "content"}
    assert not result.clean
    text = result.files["SKILL.md"].content
    assert b"<<<<<<< local\n2. deux\n=======\n2. zwei\n>>>>>>> upstream\n" in text
    assert "1 block" in result.conflicts[0].message


def test_the_same_change_on_both_sides_is_taken_once() -> None:
    both = f(SKILL.replace(b"two", b"2"))
    result = merged({"SKILL.md": f(SKILL)}, {"SKILL.md": both}, {"SKILL.md": both})
    assert result.clean and result.files == {"SKILL.md": both}


def test_added_on_one_side_is_taken() -> None:
    result = merged({}, {"mine.md": f(b"m\n")}, {"new.md": f(b"n\n")})
    assert result.clean
    assert set(result.files) == {"mine.md", "new.md"}
    assert result.changed_upstream == ("new.md",)


def test_added_on_both_sides_differently_is_an_add_add_conflict_merged_on_an_empty_base() -> None:
    result = merged({}, {"x.md": f(b"same\nmine\n")}, {"x.md": f(b"same\ntheirs\n")})
    assert kinds(result) == {"x.md": "add/add"}
    assert result.files["x.md"].content == (
        b"same\n<<<<<<< local\nmine\n=======\ntheirs\n>>>>>>> upstream\n"
    )


def test_added_on_both_sides_alike_is_clean() -> None:
    result = merged({}, {"x.md": f(b"x\n")}, {"x.md": f(b"x\n")})
    assert result.clean and result.files == {"x.md": f(b"x\n")}


def test_added_binary_on_both_sides_keeps_the_local_file() -> None:
    result = merged({}, {"x.bin": f(b"\0mine")}, {"x.bin": f(b"\0theirs")})
    assert kinds(result) == {"x.bin": "add/add"}
    assert result.files["x.bin"].content == b"\0mine"


def test_deleted_upstream_and_unchanged_locally_is_deleted() -> None:
    base = {"SKILL.md": f(SKILL), "old.md": f(b"o\n")}
    result = merged(base, dict(base), {"SKILL.md": f(SKILL)})
    assert result.clean and set(result.files) == {"SKILL.md"}
    assert result.changed_upstream == ("old.md",)


def test_deleted_locally_stays_deleted() -> None:
    base = {"SKILL.md": f(SKILL), "old.md": f(b"o\n")}
    result = merged(base, {"SKILL.md": f(SKILL)}, dict(base))
    assert result.clean and set(result.files) == {"SKILL.md"}


@pytest.mark.parametrize("deleted_by", ["upstream", "local"])
def test_deleted_on_one_side_and_changed_on_the_other_keeps_the_changed_file(
    deleted_by: str,
) -> None:
    base = {"notes.md": f(b"n\n")}
    changed = {"notes.md": f(b"n, edited\n")}
    ours, theirs = ({}, changed) if deleted_by == "local" else (changed, {})
    result = merged(base, ours, theirs)
    assert kinds(result) == {"notes.md": "modify/delete"}
    assert result.files == changed
    assert f"deleted {'locally' if deleted_by == 'local' else 'upstream'}" in (
        result.conflicts[0].message
    )


def test_a_binary_file_changed_on_one_side_takes_it() -> None:
    base = {"logo.png": f(b"\x89PNG\0old")}
    result = merged(base, dict(base), {"logo.png": f(b"\x89PNG\0new")})
    assert result.clean and result.files["logo.png"].content == b"\x89PNG\0new"


def test_a_binary_file_changed_on_both_sides_conflicts_and_keeps_the_local_one() -> None:
    base = {"logo.png": f(b"\x89PNG\0old")}
    result = merged(base, {"logo.png": f(b"\x89PNG\0mine")}, {"logo.png": f(b"\x89PNG\0new")})
    assert kinds(result) == {"logo.png": "binary"}
    assert result.files["logo.png"].content == b"\x89PNG\0mine"


def test_binary_is_a_nul_in_the_first_8000_bytes() -> None:
    assert is_binary(b"a\0b")
    assert not is_binary(b"a" * 8000 + b"\0")
    assert is_binary(b"a" * 7999 + b"\0")
    assert not is_binary("naïve ü".encode())


def test_a_mode_change_on_one_side_is_taken_with_the_other_sides_edit() -> None:
    base = {"run.sh": f(b"echo 1\n")}
    ours = {"run.sh": f(b"echo 1\n", EXECUTABLE)}
    theirs = {"run.sh": f(b"echo 2\n")}
    result = merged(base, ours, theirs)
    assert result.clean and result.files == {"run.sh": f(b"echo 2\n", EXECUTABLE)}


def test_a_file_made_a_symlink_on_one_side_and_edited_on_the_other_is_a_mode_conflict() -> None:
    base = {"ref.md": f(b"text\n")}
    result = merged(base, {"ref.md": f(b"other.md", SYMLINK)}, {"ref.md": f(b"new text\n")})
    assert kinds(result) == {"ref.md": "mode"}
    assert result.files["ref.md"] == f(b"other.md", SYMLINK)


def test_a_mode_added_differently_on_both_sides_is_a_mode_conflict() -> None:
    result = merged({}, {"run.sh": f(b"x\n", EXECUTABLE)}, {"run.sh": f(b"x\n")})
    assert kinds(result) == {"run.sh": "mode"}


def test_a_symlink_is_merged_as_its_target_and_never_followed() -> None:
    base = {"link": f(b"a.md", SYMLINK)}
    result = merged(base, dict(base), {"link": f(b"b.md", SYMLINK)})
    assert result.clean and result.files == {"link": f(b"b.md", SYMLINK)}
    clash = merged(base, {"link": f(b"c.md", SYMLINK)}, {"link": f(b"b.md", SYMLINK)})
    assert kinds(clash) == {"link": "content"}
    assert clash.files["link"] == f(b"c.md", SYMLINK)


def test_a_symlink_made_a_different_file_on_each_side_keeps_the_local_file() -> None:
    base = {"ref.md": f(b"other.md", SYMLINK)}
    result = merged(base, {"ref.md": f(b"mine\n")}, {"ref.md": f(b"theirs\n")})
    assert kinds(result) == {"ref.md": "content"}
    assert result.files == {"ref.md": f(b"mine\n")}


def test_an_upstream_rename_carries_the_local_edit_to_the_new_path() -> None:
    base = {"SKILL.md": f(SKILL), "ref.md": f(LONG)}
    ours = {"SKILL.md": f(SKILL), "ref.md": f(LONG.replace(b"line 2 ", b"LINE 2 "))}
    moved = LONG.replace(b"line 17 ", b"line seventeen ")
    theirs = {"SKILL.md": f(SKILL), "references/ref.md": f(moved)}
    result = merged(base, ours, theirs)
    assert result.clean, result.conflicts
    assert set(result.files) == {"SKILL.md", "references/ref.md"}
    text = result.files["references/ref.md"].content
    assert b"LINE 2 " in text and b"line seventeen " in text
    assert result.renames == (("ref.md", "references/ref.md"),)
    assert result.changed_upstream == ("ref.md", "references/ref.md")


def test_a_rename_whose_content_conflicts_names_the_new_path_and_the_old() -> None:
    base = {"ref.md": f(LONG)}
    ours = {"ref.md": f(LONG.replace(b"line 3 ", b"mine 3 "))}
    theirs = {"docs/ref.md": f(LONG.replace(b"line 3 ", b"theirs 3 "))}
    result = merged(base, ours, theirs)
    assert kinds(result) == {"docs/ref.md": "content"}
    assert "renamed upstream from ref.md" in result.conflicts[0].message
    assert set(result.files) == {"docs/ref.md"}


def test_a_rename_of_a_file_deleted_locally_is_a_rename_conflict_keeping_upstreams() -> None:
    result = merged({"ref.md": f(LONG)}, {}, {"docs/ref.md": f(LONG)})
    assert kinds(result) == {"docs/ref.md": "rename"}
    assert result.files == {"docs/ref.md": f(LONG)}


def test_a_rename_onto_a_path_added_locally_merges_each_path_on_its_own() -> None:
    base = {"ref.md": f(LONG)}
    result = merged(
        base, {"ref.md": f(LONG), "docs/ref.md": f(b"mine\n")}, {"docs/ref.md": f(LONG)}
    )
    assert kinds(result) == {"docs/ref.md": "add/add"}
    assert "ref.md" not in result.files


def test_a_local_rename_takes_the_upstream_edit_of_the_old_path() -> None:
    base = {"ref.md": f(LONG)}
    ours = {"docs/ref.md": f(LONG.replace(b"line 1 ", b"LINE 1 "))}
    theirs = {"ref.md": f(LONG.replace(b"line 18 ", b"LINE 18 "))}
    result = merged(base, ours, theirs)
    assert result.clean, result.conflicts
    text = result.files["docs/ref.md"].content
    assert set(result.files) == {"docs/ref.md"} and b"LINE 1 " in text and b"LINE 18 " in text
    assert result.renames == ()  # only upstream's renames are reported as followed


@pytest.mark.parametrize("content", [LONG, LONG + b"mine\n"])
def test_a_local_rename_of_a_file_upstream_deleted_is_a_rename_conflict_keeping_it(
    content: bytes,
) -> None:
    # As git's rename/delete: the local move is a change, so the file does not vanish.
    result = merged({"ref.md": f(LONG)}, {"docs/ref.md": f(content)}, {})
    assert kinds(result) == {"docs/ref.md": "rename"}
    assert "renamed to docs/ref.md locally and deleted upstream" in result.conflicts[0].message
    assert result.files == {"docs/ref.md": f(content)}


def test_the_same_rename_on_both_sides_merges_at_the_new_path() -> None:
    base = {"ref.md": f(LONG)}
    ours = {"docs/ref.md": f(LONG.replace(b"line 1 ", b"LINE 1 "))}
    theirs = {"docs/ref.md": f(LONG.replace(b"line 18 ", b"LINE 18 "))}
    result = merged(base, ours, theirs)
    assert result.clean
    assert result.renames == (("ref.md", "docs/ref.md"),)
    assert b"LINE 1 " in result.files["docs/ref.md"].content
    assert b"LINE 18 " in result.files["docs/ref.md"].content


def test_renamed_differently_on_both_sides_is_a_rename_conflict_keeping_both() -> None:
    base = {"ref.md": f(LONG)}
    result = merged(base, {"mine/ref.md": f(LONG)}, {"theirs/ref.md": f(LONG)})
    assert kinds(result) == {"mine/ref.md": "rename"}
    assert set(result.files) == {"mine/ref.md", "theirs/ref.md"}


def test_a_file_too_different_is_no_rename() -> None:
    base = {"a.md": f(LONG)}
    theirs = {"b.md": f(b"something else entirely\n")}
    result = merged(base, {"a.md": f(LONG + b"local\n")}, theirs)
    assert result.renames == ()
    assert kinds(result) == {"a.md": "modify/delete"}
    assert result.files["b.md"] == theirs["b.md"]


def test_renames_pair_exact_matches_first_and_then_the_most_similar() -> None:
    gone = {"a.md": LONG, "b.md": LONG + b"extra\n", "c.md": b"short\n"}
    new = {"x/a.md": LONG, "x/b.md": LONG + b"extra!\n", "x/empty": b""}
    assert find_renames(gone, new) == [("a.md", "x/a.md"), ("b.md", "x/b.md")]
    assert similarity(b"a\nb\n", b"a\nb\n") == 1.0
    assert similarity(b"a\n", b"b\n") == 0.0
    assert find_renames({"e": b""}, {"f": b""}) == []


def test_unsafe_entries_are_paths_out_of_the_folder_and_links_leaving_it() -> None:
    files = {
        "SKILL.md": f(SKILL),
        "ok-link": f(b"scripts/run.sh", SYMLINK),
        "scripts/run.sh": f(b"x", EXECUTABLE),
        "scripts/up": f(b"../SKILL.md", SYMLINK),
        "out": f(b"../../etc/passwd", SYMLINK),
        "abs": f(b"/etc/passwd", SYMLINK),
        "dir/dot": f(b".", SYMLINK),
        "chain": f(b"dir/dot/../../secret", SYMLINK),
        "loop": f(b"loop", SYMLINK),
        "into-git": f(b"sub/.git/config", SYMLINK),
        "a/../b": f(b"x"),
        "/etc/x": f(b"x"),
        ".git/hooks/post-checkout": f(b"x"),
        "sub/.GIT/config": f(b"x"),
        "module": f(b"", 0o160000),
    }
    assert unsafe_entries(files) == sorted(
        [
            "out",
            "abs",
            "chain",
            "loop",
            "into-git",
            "a/../b",
            "/etc/x",
            ".git/hooks/post-checkout",
            "sub/.GIT/config",
            "module",
        ]
    )
    assert "outside the skill folder" in (unsafe_reason("out", files["out"], files) or "")
    assert "submodule" in (unsafe_reason("module", files["module"]) or "")
    assert unsafe_reason("SKILL.md", files["SKILL.md"]) is None


entries = st.builds(
    FileEntry,
    st.sampled_from([b"", b"a\n", b"a\nb\n", b"b\n", b"\0bin", LONG, LONG + b"x\n"]),
    st.sampled_from([0o100644, EXECUTABLE, SYMLINK]),
)
folders = st.dictionaries(st.sampled_from(["SKILL.md", "a.md", "d/b.md", "d/c.sh"]), entries)


@given(folders, folders)
def test_a_side_left_alone_gives_the_other_folder(
    base: dict[str, FileEntry], other: dict[str, FileEntry]
) -> None:
    for result in (merge_folder(base, base, other), merge_folder(base, other, base)):
        assert result.clean and result.files == other
    assert merge_folder(base, other, other).files == other


@given(folders, folders, folders)
def test_a_merge_loses_no_local_file_unless_upstream_deleted_or_moved_it(
    base: dict[str, FileEntry], ours: dict[str, FileEntry], theirs: dict[str, FileEntry]
) -> None:
    result = merge_folder(base, ours, theirs)
    moved = {old for old, _ in result.renames}
    for path, entry in ours.items():
        if path in result.files or path in moved:
            continue
        assert base.get(path) == entry and path not in theirs, path

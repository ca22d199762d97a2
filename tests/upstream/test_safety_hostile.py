"""The safety check against hostile folders: links that multiply or run long, names git itself
reads as `.git` or `.gitmodules` (NTFS and HFS+ aliases), backslashes in link targets."""

from __future__ import annotations

import pytest

from gitcurator.upstream.folder_merge import SYMLINK, FileEntry
from gitcurator.upstream.folder_safety import unsafe_entries, unsafe_reason


def f(content: bytes, mode: int = 0o100644) -> FileEntry:
    return FileEntry(content, mode)


def test_links_that_multiply_are_resolved_in_bounded_steps() -> None:
    # Each link names the next three times: resolving it naively takes 3**30 steps.
    files = {f"l{i}": f(f"l{i + 1}/../l{i + 1}/../l{i + 1}".encode(), SYMLINK) for i in range(30)}
    files["l30"] = f(b"SKILL.md", SYMLINK)
    files["SKILL.md"] = f(b"x")
    reason = unsafe_reason("l0", files["l0"], files)
    assert reason is not None and "too many links" in reason


def test_a_chain_of_forty_links_is_still_followed() -> None:
    files = {f"l{i}": f(f"l{i + 1}".encode(), SYMLINK) for i in range(40)}
    files["l40"] = f(b"SKILL.md", SYMLINK)
    assert unsafe_reason("l0", files["l0"], files) is None


def test_a_very_long_link_target_is_refused() -> None:
    assert "too long" in (unsafe_reason("l", f(b"a/" * 3000 + b"b", SYMLINK)) or "")


@pytest.mark.parametrize(
    "path",
    [
        ".git ",
        ".git.",
        ".GIT . ",
        "git~1/config",
        "GIT~1",
        "d/.g\u200cit/config",
        "\ufeff.git/config",
        ".gitmodules",
        "sub/.GitModules",
        ".gitmodules ",
        "gitmod~1",
    ],
)
def test_names_git_reads_as_dot_git_or_gitmodules_are_refused(path: str) -> None:
    assert unsafe_reason(path, f(b"x")) is not None


@pytest.mark.parametrize("target", [".GIT ", "sub/git~1/config", ".gitmodules", "a\\..\\..\\x"])
def test_links_to_those_names_or_with_a_backslash_are_refused(target: str) -> None:
    assert unsafe_reason("link", f(target.encode(), SYMLINK), {}) is not None


@pytest.mark.parametrize("path", [".github/workflows/x.yml", "gitlab.md", ".gitignore", "git"])
def test_names_merely_like_git_are_fine(path: str) -> None:
    assert unsafe_reason(path, f(b"x")) is None


def test_a_file_under_a_path_that_is_a_file_or_a_link_is_refused() -> None:
    # Only a forged tree holds both; written, `link/x` would go wherever `link` points.
    files = {"link": f(b"sub", SYMLINK), "link/x": f(b"x"), "sub/y": f(b"y"), "a": f(b"a")}
    files["a/b/c"] = f(b"c")
    reason = unsafe_reason("link/x", files["link/x"], files)
    assert reason is not None and "under link" in reason
    assert "under a" in (unsafe_reason("a/b/c", files["a/b/c"], files) or "")
    assert unsafe_reason("sub/y", files["sub/y"], files) is None
    assert unsafe_reason("link", files["link"], files) is None


def test_a_name_no_file_system_can_hold_is_refused() -> None:
    assert "longer than 255" in (unsafe_reason("d/" + "x" * 256, f(b"x")) or "")
    assert unsafe_reason("d/" + "x" * 255, f(b"x")) is None
    assert unsafe_reason("\ud800/" + "é" * 128, f(b"x")) is not None  # no exception either


def test_many_links_through_one_long_link_read_its_target_once() -> None:
    # 1,000 links each going through `x` 39 times, `x` a 4,000-byte target: 60,000 steps a
    # link, seconds for the folder, when every lookup read `x` again.
    files = {"y/f": f(b"x"), "x": f(b"y/../" * 800 + b"y", SYMLINK)}
    files |= {f"l{i}": f(b"x/../" * 39 + b"y", SYMLINK) for i in range(1000)}
    files["bad"] = f(b"x/../" * 41 + b"y", SYMLINK)
    assert unsafe_entries(files) == ["bad"]

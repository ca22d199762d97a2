"""A client's path to a support file: confined to the skill's committed files (table-driven)."""

from __future__ import annotations

import pytest

from gitcurator.mcp.paths import GITLINK_MODE, LINK_MODE, PathRefused, resolve

FILE = 0o100644
MODES = {
    "SKILL.md": FILE,
    "references/notes.md": FILE,
    "references/deep/more.md": FILE,
    "references/inner.md": LINK_MODE,  # -> notes.md
    "references/dir-link": LINK_MODE,  # -> deep
    "references/up.md": LINK_MODE,  # -> ../SKILL.md
    "references/out": LINK_MODE,  # -> ../../other
    "references/abs": LINK_MODE,  # -> /etc/passwd
    "references/loop": LINK_MODE,  # -> loop
    "vendor/lib": GITLINK_MODE,
}
TARGETS = {
    "references/inner.md": "notes.md",
    "references/dir-link": "deep",
    "references/up.md": "../SKILL.md",
    "references/out": "../../other",
    "references/abs": "/etc/passwd",
    "references/loop": "loop",
}


def _resolve(path: str) -> str:
    return resolve(path, MODES, TARGETS.__getitem__)


@pytest.mark.parametrize(
    ("asked", "found"),
    [
        ("references/notes.md", "references/notes.md"),
        ("./references//notes.md", "references/notes.md"),
        ("references/inner.md", "references/notes.md"),
        ("references/dir-link/more.md", "references/deep/more.md"),
        ("references/up.md", "SKILL.md"),
    ],
)
def test_paths_inside_the_skill_resolve(asked: str, found: str) -> None:
    assert _resolve(asked) == found


@pytest.mark.parametrize(
    ("asked", "why"),
    [
        ("", "give the path of a file"),
        (".", "give the path of a file"),
        ("../other/SKILL.md", "`..` is not allowed"),
        ("references/../../x", "`..` is not allowed"),
        ("/etc/passwd", "relative to the skill folder"),
        ("C:/Windows/win.ini", "relative to the skill folder"),
        ("references\\notes.md", "relative to the skill folder"),
        ("a\x00b", "give the path of a file"),
        ("references/out/SKILL.md", "references/out is a symlink out of the skill"),
        ("references/out", "references/out is a symlink out of the skill"),
        ("references/abs", "symlink out of the skill (/etc/passwd)"),
        ("references/loop", "too many symlinks"),
        ("references", "is a folder"),
        ("references/missing.md", "no such file in the skill"),
        ("references/notes.md/x", "no such file in the skill"),
        ("vendor/lib", "is a git submodule"),
    ],
)
def test_paths_leaving_the_skill_or_naming_no_file_are_refused(asked: str, why: str) -> None:
    with pytest.raises(PathRefused) as caught:
        _resolve(asked)
    assert why in str(caught.value)

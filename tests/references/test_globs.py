"""reference_files globs: matched from the repository's top, refused when they leave it."""

from __future__ import annotations

import pytest

from gitcurator.config import parse_config
from gitcurator.errors import ConfigError
from gitcurator.references.globs import DEFAULT_REFERENCE_FILES, glob_problem, matches_any


@pytest.mark.parametrize(
    ("path", "globs", "expected"),
    [
        ("AGENTS.md", DEFAULT_REFERENCE_FILES, True),
        ("CLAUDE.md", DEFAULT_REFERENCE_FILES, True),
        ("team/a/AGENTS.md", DEFAULT_REFERENCE_FILES, True),
        ("team/CLAUDE.md", DEFAULT_REFERENCE_FILES, False),
        ("AGENTS.md.bak", DEFAULT_REFERENCE_FILES, False),
        ("docs/cron.yaml", ("docs/*.yaml",), True),
        ("docs/deep/cron.yaml", ("docs/*.yaml",), False),
        ("docs/deep/cron.yaml", ("docs/**",), True),
        ("jobs/j1.md", ("jobs/j?.md",), True),
        ("jobs/jb.md", ("jobs/j[0-9].md",), False),
        ("jobs/j5.md", ("jobs/j[0-9].md",), True),
        ("a+b.md", ("a+b.md",), True),
        # Globs matched folder by folder (two `**` or two `*` in a name): the same meaning.
        ("a/b/c/x.md", ("**/b/**/x.md",), True),
        ("b/x.md", ("**/b/**/x.md",), True),
        ("a/c/x.md", ("**/b/**/x.md",), False),
        ("docs/a/b", ("docs/**/**",), True),
        ("docs", ("docs/**/**",), False),
        ("x-a-b.md", ("*-*-*.md",), True),
        ("x-a.md", ("*-*-*.md",), False),
        ("j5-x.md", ("[!a-c]*-*",), True),
        ("b5-x.md", ("[!a-c]*-*",), False),
    ],
)
def test_matches(path: str, globs: tuple[str, ...], expected: bool) -> None:
    assert matches_any(path, globs) is expected


@pytest.mark.parametrize(
    ("glob", "miss", "hit"),
    [
        ("**/**/**/**/**/**/**/**/x.md", "a/" * 30 + "y.md", "a/" * 30 + "x.md"),
        ("*a*a*a*a*a*a*a*b", "a" * 200, "a" * 200 + "b"),
        ("**/*a*a*a*a*a*a*b/**", "a/" * 40 + "a" * 200 + "/x", "a/" * 40 + "a" * 200 + "b/x"),
    ],
)
def test_a_glob_that_would_backtrack_is_matched_in_linear_steps(
    glob: str, miss: str, hit: str
) -> None:
    # As one regex each took from seconds to hours per path (a pass tests every path).
    assert not matches_any(miss, [glob])
    assert matches_any(hit, [glob])


@pytest.mark.parametrize(
    "glob", ["../AGENTS.md", "/etc/AGENTS.md", "docs/../../x.md", "~/AGENTS.md", "C:/x.md", " "]
)
def test_a_glob_leaving_the_repository_is_a_config_error(glob: str) -> None:
    assert glob_problem(glob)
    with pytest.raises(ConfigError, match=r"reference_files glob .* inside the repository"):
        parse_config(f"reference_files: [{glob!r}]\n")


def test_the_config_keys() -> None:
    config = parse_config("reference_files: [docs/*.md]\ncurator:\n  archive_referenced: true\n")
    assert config.reference_files == ("docs/*.md",)
    assert config.curator.archive_referenced
    default = parse_config("")
    assert default.reference_files == DEFAULT_REFERENCE_FILES
    assert not default.curator.archive_referenced
    assert parse_config("reference_files: []\n").reference_files == ()
    with pytest.raises(ConfigError, match="archive_referenced"):
        parse_config("curator:\n  archive_referenced: maybe\n")

"""The warnings `init`, `list` and `validate` give about what sits in a library and is not
curated: SKILL.md files under dot-folders, and folders that are repositories of their own.

Imports no dulwich: `list --json`'s quick path (`commands/list_quick`) words its warnings here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from gitcurator.output import warning_line
from gitcurator.render import hidden_skills_note

if TYPE_CHECKING:
    from gitcurator.store import Store


def hidden_notes(hidden: Sequence[str], skills_dir: str) -> tuple[str, ...]:
    """The warning for SKILL.md files skipped under dot-folders (none when there are none)."""
    note = hidden_skills_note(hidden, skills_dir)
    return (warning_line(note),) if note else ()


def nested_notes(store: Store, head_links: Iterable[str] | None = None) -> tuple[str, ...]:
    """A warning per folder no commit can hold because it is a repository of its own
    (`head_links`: HEAD's submodule links, when the caller has them: no tree read)."""
    return folder_notes(store.nested_repositories(head_links))


def folder_notes(folders: Sequence[str]) -> tuple[str, ...]:
    """A warning per nested repository among `folders` (repo-relative, sorted)."""
    if not folders:
        return ()
    # Only now: the findings' module brings the skill checks and their regular expressions.
    from gitcurator.skills.nested_repos import nested_findings

    return tuple(warning_line(f"{f.path}/: {f.message}") for f in nested_findings(folders))

"""The warnings `init`, `list` and `validate` give about what sits in a library and is not
curated: SKILL.md files under dot-folders, and folders that are repositories of their own.

Imports no dulwich: `list --json`'s quick path (`commands/list_quick`) words its warnings here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from gitcurator import forked
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


class NestedWalk(forked.Beside):
    """nested_notes with its walk of the work tree (0.2 s at 10,000 skills) run beside the
    caller's work when `beside` (see forked.Beside: a with-block, so a failure or an
    interrupt before notes() stops the walk, which would else write its record into a .git
    an undo may remove)."""

    def __init__(self, store: Store, beside: bool) -> None:
        self.store = store

        def walked() -> bytes:  # HEAD's links are the caller's: notes() adds them
            return "\0".join(store.nested_repositories(())).encode("utf-8", "surrogateescape")

        super().__init__(walked, beside)

    def notes(self, head_links: Iterable[str]) -> tuple[str, ...]:
        """The warnings nested_notes(store, head_links) gives: the child's walk, or one made
        here (no child, or it failed)."""
        data = self.result()
        if data is None:
            return nested_notes(self.store, head_links)
        # A folder name that is not UTF-8 comes back as the same surrogate-escaped str.
        found = data.decode("utf-8", "surrogateescape").split("\0") if data else []
        return folder_notes(sorted({*found, *head_links}))


def folder_notes(folders: Sequence[str]) -> tuple[str, ...]:
    """A warning per nested repository among `folders` (repo-relative, sorted)."""
    if not folders:
        return ()
    # Only now: the findings' module brings the skill checks and their regular expressions.
    from gitcurator.skills.nested_repos import nested_findings

    return tuple(warning_line(f"{f.path}/: {f.message}") for f in nested_findings(folders))

"""In-memory FileTrees for the pure checks: a tree from {path: text}, symlinks as ("->", target)."""

from __future__ import annotations

from collections.abc import Mapping

from gitcurator.skills.files import FileEntry, FileTree


def skill_md(name: str, body: str = "") -> str:
    """A valid SKILL.md named `name`, with `body` after its heading."""
    return (
        f"---\nname: {name}\ndescription: Use when a task needs {name}.\n---\n\n# {name}\n\n{body}"
    )


def file_tree(files: Mapping[str, str | tuple[str, str]]) -> FileTree:
    """A FileTree of text files; a value ("->", target) is a symlink to target."""
    links = {p: v[1] for p, v in files.items() if isinstance(v, tuple)}

    def load(path: str) -> FileEntry:
        value = files[path]
        if isinstance(value, tuple):
            return FileEntry(path, len(value[1]), link_target=value[1])
        data = value.encode()
        return FileEntry(path, len(data), data=data)

    return FileTree(tuple(sorted(files)), links, load)

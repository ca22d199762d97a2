"""The diffs of `review --diff` (pure): per umbrella, its SKILL.md against the concatenated
skills it absorbed as they were at the pass's base; per other change, a diff as git shows it.

Lines are built as (kind, text) and painted last, so the text is the same with or without
colour and every piece of a stored file is made terminal-safe before a colour code is added.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gitcurator.render import one_line, printable

Line = tuple[str, str]  # (kind, text): title, meta, hunk, add, remove, context
# git's own colours (color.diff defaults): commit yellow, meta bold, frag cyan, old red, new green.
_COLOURS = {
    "title": "\x1b[33m",
    "meta": "\x1b[1m",
    "hunk": "\x1b[36m",
    "add": "\x1b[32m",
    "remove": "\x1b[31m",
}
_RESET = "\x1b[m"


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file a commit changed: its path before and after (None: absent on that side) and
    its text on each side (None: absent, or not text)."""

    old_path: str | None
    new_path: str | None
    old_text: str | None
    new_text: str | None
    binary: bool = False
    renamed_whole: bool = False  # the same content at a new path (a move)
    omitted: str = ""  # why its text is not shown (too long...), or empty


def commit_title(commit: str, subject: str) -> list[Line]:
    """The line that starts one commit's diffs."""
    return [("title", f"commit {commit}"), ("context", f"    {subject}"), ("context", "")]


def umbrella_diff(
    umbrella_md: str, umbrella_text: str, sources: Sequence[tuple[str, str]]
) -> list[Line]:
    """The umbrella's SKILL.md (`umbrella_md`, now `umbrella_text`) against `sources`, the
    (SKILL.md path, body) of the skills it took in, concatenated in that order."""
    before = "".join(_ending(text) for _, text in sources)
    names = " + ".join(one_line(path) for path, _ in sources) or "nothing"
    umbrella_md = one_line(umbrella_md)
    lines: list[Line] = [
        ("meta", f"umbrella {umbrella_md} against what it absorbed: {names}"),
        ("meta", "--- a/(absorbed bodies, concatenated)"),
        ("meta", f"+++ b/{umbrella_md}"),
    ]
    return lines + _hunks(before, umbrella_text)


def file_diff(change: FileChange) -> list[Line]:
    """One file's diff, with git's header lines (`rename from`, `new file mode`...)."""
    # A path in a tree may hold a newline: it would forge a line of the diff.
    old = one_line(change.old_path or change.new_path or "")
    new = one_line(change.new_path or change.old_path or "")
    lines: list[Line] = [("meta", f"diff --git a/{old} b/{new}")]
    if change.renamed_whole:
        lines += [("meta", "similarity index 100%"), ("meta", f"rename from {old}")]
        return [*lines, ("meta", f"rename to {new}")]
    if change.old_path is None:
        lines.append(("meta", "new file"))
    elif change.new_path is None:
        lines.append(("meta", "deleted file"))
    if change.binary:
        return [*lines, ("context", f"Binary files a/{old} and b/{new} differ")]
    if change.omitted:
        return [
            *lines,
            ("context", f"Files a/{old} and b/{new} differ, not shown: {change.omitted}"),
        ]
    lines += [
        ("meta", f"--- a/{old}" if change.old_path is not None else "--- /dev/null"),
        ("meta", f"+++ b/{new}" if change.new_path is not None else "+++ /dev/null"),
    ]
    return lines + _hunks(change.old_text or "", change.new_text or "")


def paint(lines: Iterable[Line], colour: bool) -> str:
    """The diff as text, each line made terminal-safe, coloured as git does when asked."""
    out = []
    for kind, text in lines:
        safe = printable(text)
        code = _COLOURS.get(kind) if colour else None
        out.append(f"{code}{safe}{_RESET}" if code and safe else safe)
    return "\n".join(out)


def _hunks(before: str, after: str) -> list[Line]:
    kinds = {"+": "add", "-": "remove", "@": "hunk"}
    # The first two lines are difflib's file header; ours is written above it.
    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm=""))[2:]
    return [(kinds.get(line[:1], "context"), line) for line in diff]


def _ending(text: str) -> str:
    return text if text.endswith("\n") or not text else text + "\n"

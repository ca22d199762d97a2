"""Words for people: the text helpers every command's output is built with (pure).

Nothing here writes; gitcurator.output does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gitcurator.skills.check_skill import Finding


def finding_line(f: Finding) -> str:
    """`path:line: level: message [rule]`, the format editors and CI logs link to."""
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"{where}: {f.level}: {f.message} [{f.rule}]"


def findings_text(findings: Iterable[Finding], show_warnings: bool = True) -> str:
    """The findings one per line (errors only unless `show_warnings`)."""
    return "\n".join(finding_line(f) for f in findings if show_warnings or f.level == "error")


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 skill`, `2 skills` (or `many` for an irregular plural)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def other_branch_note(branch: str, checked_out: str | None) -> str | None:
    """What to tell a person whose work tree is on another branch than the one that moved."""
    if checked_out == branch:
        return None
    where = f"on {checked_out}" if checked_out else "at a detached HEAD"
    return (
        f"note: {branch} moved, but your work tree is {where} and did not change; "
        f"`git checkout {branch}` to see the result"
    )


def name_list(names: Sequence[str], shown: int = 5) -> str:
    """`a, b, c and 7 more`: a pass may move hundreds of skills; the JSON lists them all."""
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def hidden_skills_note(hidden: Sequence[str], skills_dir: str = "") -> str | None:
    """The warning for SKILL.md files skipped under dot-folders, with the `include:` to add."""
    if not hidden:
        return None
    prefix = f"{skills_dir}/" if skills_dir else ""
    folders = sorted({_dot_folder(h.removeprefix(prefix)) for h in hidden})
    return (
        f"{plural(len(hidden), 'SKILL.md file')} skipped under dot-folders "
        f"({name_list(list(hidden), 3)}); gitcurator leaves dot-folders out, to curate them "
        f"add `include: [{', '.join(folders)}]` to .gitcurator.yaml"
    )


def _dot_folder(path: str) -> str:
    parts = path.split("/")
    at = next(i for i, part in enumerate(parts) if part.startswith("."))
    return "/".join(parts[: at + 1])

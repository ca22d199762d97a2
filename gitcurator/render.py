"""Words for people: the text helpers every command's output is built with (pure).

Nothing here writes; gitcurator.output does.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the type only: output imports this module, and `record` imports output
    from gitcurator.skills.check_skill import Finding


def finding_line(f: Finding) -> str:
    """`path:line: level: message [rule]`, the format editors and CI logs link to."""
    path = one_line(f.path)  # a newline in a file name must not start a finding of its own
    where = f"{path}:{f.line}" if f.line else path
    return f"{where}: {f.level}: {f.message} [{f.rule}]"


def findings_text(findings: Iterable[Finding], show_warnings: bool = True) -> str:
    """The findings one per line (errors only unless `show_warnings`)."""
    return "\n".join(finding_line(f) for f in findings if show_warnings or f.level == "error")


def utf8_text(text: str) -> bool:
    """Whether `text` can be written as UTF-8: False for a name git stores as bytes that
    are not (Python holds them as lone surrogates, which no file, URL or message can hold)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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


# What must never reach a terminal raw: control characters but newline and tab (an escape
# sequence in a file name could rewrite the screen), bidirectional overrides, and the lone
# surrogates that stand for the bytes of a file name that is not UTF-8.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


_UNSAFE_IN_A_LINE = re.compile(f"{_UNSAFE.pattern[:-1]}\t\n]")


def name_arg(name: str) -> str:
    """A skill's name as a hint's command line takes it: shell-quoted, after `--` when it
    starts with '-' (`restore -- -21risk-automation`), so the hint runs as shown."""
    return ("-- " if name.startswith("-") else "") + shlex.quote(name)


def printable(text: str) -> str:
    """`text` safe for a terminal: each unsafe character shown as an escape (`\\x1b`; the
    byte `\\xe9` of a file name that is not UTF-8), newlines and tabs kept."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """`text` as printable, with newlines and tabs escaped too: a file name in a list of
    lines (a newline in it would start a line of its own)."""
    return _UNSAFE_IN_A_LINE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's stand-in for the byte code - 0xDC00
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

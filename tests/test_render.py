"""The text helpers: what a file name may hold never breaks a line or reaches a terminal raw."""

from __future__ import annotations

import os

from gitcurator.render import finding_line, one_line, printable
from gitcurator.skills.check_skill import Finding


def test_a_finding_on_a_file_whose_name_holds_a_newline_stays_one_line() -> None:
    finding = Finding("error", "notes/evil\nname\t.md", "Symlink leaves the repository", "symlink")
    assert finding_line(finding) == (
        "notes/evil\\x0aname\\x09.md: error: Symlink leaves the repository [symlink]"
    )


def test_one_line_escapes_what_printable_keeps() -> None:
    name = os.fsdecode(b"caf\xe9\n\x1b.txt")
    assert printable(name) == "caf\\xe9\n\\x1b.txt"
    assert one_line(name) == "caf\\xe9\\x0a\\x1b.txt"

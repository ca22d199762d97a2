"""The one module that writes to the terminal: results for people and for machines.

Commands and library code never print. A command returns a `Result`; the CLI hands it to
`emit`, which writes the text (or the `--json` document) to stdout and the notes (warnings,
hints) to stderr. Work that takes long reports through a `Progress` it is given, which shows
something only when stderr is a terminal (stdout, JSON or not, stays clean).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from gitcurator.errors import EXIT_OK


@dataclass(frozen=True, slots=True)
class Result:
    """What a command hands back: its exit code and what to show."""

    code: int = EXIT_OK
    text: str = ""  # for a person, on stdout; empty prints nothing
    doc: object = None  # for --json, on stdout; None means the command has no JSON form
    notes: tuple[str, ...] = field(default=())  # warnings and hints, on stderr in both modes


def emit(result: Result, *, as_json: bool = False) -> int:
    """Show a result (JSON when asked and the command has a document); return its exit code."""
    for note in result.notes:
        warn(note)
    if as_json and result.doc is not None:
        emit_json(result.doc)
    elif result.text:
        sys.stdout.write(result.text.rstrip("\n") + "\n")
        sys.stdout.flush()
    return result.code


def emit_json(doc: object) -> None:
    """Write one JSON document to stdout: indented for a person at a terminal, compact for a
    pipe (json's C encoder only runs without indent; 10,000 rows take 1 s indented)."""
    indent = 2 if sys.stdout.isatty() else None
    sys.stdout.write(json.dumps(doc, indent=indent, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def warn(message: str) -> None:
    """One line (or paragraph) on stderr."""
    sys.stderr.write(message.rstrip("\n") + "\n")
    sys.stderr.flush()


def warn_all(messages: Iterable[str]) -> None:
    for message in messages:
        warn(message)


class Progress:
    """One status line on stderr that rewrites itself, shown only when stderr is a terminal
    (a pipe or a log gets none of it)."""

    def __init__(self) -> None:
        self.shown = sys.stderr.isatty()

    def show(self, line: str) -> None:
        """Replace the status line with `line`."""
        if self.shown:
            sys.stderr.write(f"\r\033[K{line}")
            sys.stderr.flush()

    def done(self, line: str) -> None:
        """Replace the status line with `line` for good."""
        if self.shown:
            sys.stderr.write(f"\r\033[K{line}\n")
            sys.stderr.flush()

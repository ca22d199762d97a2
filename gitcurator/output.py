"""The one module that writes to the terminal: results for people and for machines.

Commands and library code never print. A command returns a `Result`; the CLI hands it to
`emit`, which writes the notes (warnings, hints, the findings of a refusal) to stderr and then
the text (or, with `--json`, the document) to stdout. Work that takes long reports through a
`Progress` it is given, which shows something only when stderr is a terminal (stdout, JSON or
not, stays clean).
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from typing import TextIO

from gitcurator.error_handler import error_line
from gitcurator.errors import EXIT_FAILURE, EXIT_OK
from gitcurator.render import printable


@dataclass(frozen=True, slots=True)
class Result:
    """What a command hands back: its exit code and what to show."""

    code: int = EXIT_OK
    text: str = ""  # for a person, on stdout; empty prints nothing
    doc: object = None  # for --json, on stdout; None means the command has no JSON form
    notes: tuple[str, ...] = field(default=())  # warnings and hints, on stderr in both modes


@dataclass(frozen=True, slots=True)
class JsonText:
    """A document already encoded as emit_json encodes one for a pipe (json.dumps, no
    indent, ensure_ascii off): written as it is there, decoded and indented at a terminal."""

    text: str


def warning_line(message: str) -> str:
    """The note that warns about `message`."""
    return f"gitcurator: warning: {message}"


def failed(
    message: str, *, code: int = EXIT_FAILURE, text: str = "", notes: tuple[str, ...] = ()
) -> Result:
    """A command that stops after showing `text` and `notes`: the error line comes last."""
    return Result(code, text, None, (*notes, error_line(message)))


def emit(result: Result, *, as_json: bool = False) -> int:
    """Show a result (JSON when asked and the command has a document); return its exit code."""
    for note in result.notes:
        warn(note)
    if as_json and result.doc is not None:
        emit_json(result.doc)
    elif result.text:
        _write(sys.stdout, result.text)
    return result.code


def progress_drawn() -> bool:
    """Whether a command's progress bars are drawn: stderr is a terminal that can erase a
    line (TERM=dumb, an editor's shell, cannot: the bars would print their escapes)."""
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


def colour_wanted() -> bool:
    """Whether stdout takes colour: a terminal that is not dumb (git asks the same of TERM:
    unset or `dumb` takes none), and no NO_COLOR (https://no-color.org: set and not empty)."""
    term = os.environ.get("TERM", "dumb")
    return sys.stdout.isatty() and term != "dumb" and not os.environ.get("NO_COLOR")


def emit_paged(result: Result, *, pager: bool = True, core_pager: str | None = None) -> int:
    """Show a result's text (already terminal-safe, colour codes kept) through the pager as
    `git diff` does: $GIT_PAGER, else git's `core_pager` setting, else $PAGER, else `less -FRX`;
    none when stdout is not a terminal, `pager` is False, or the pager is empty or `cat`."""
    for note in result.notes:
        warn(note)
    text = lines_of(result.text)
    # As git: the first one set decides, and set but empty means no pager.
    found = [os.environ[v] for v in ("GIT_PAGER",) if v in os.environ]
    found += [core_pager] if core_pager is not None else []
    found += [os.environ[v] for v in ("PAGER",) if v in os.environ]
    command = (found[0] if found else "less -FRX").strip()
    if not (pager and sys.stdout.isatty()) or command in ("", "cat"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return result.code
    sys.stdout.flush()
    if not _page(command, text):
        sys.stdout.write(text)
        sys.stdout.flush()
    return result.code


def _page(command: str, text: str) -> bool:
    """Run the pager `command` on `text` until the person quits it; False when it could not
    start (then the text is shown without it)."""
    import signal
    import subprocess  # here, not at the top: `record`'s hot path imports this module

    env = {"LESS": "FRX", "LV": "-c", **os.environ}  # git's defaults, unless the user's own
    # As git: Ctrl-C belongs to the pager (less stops a search with it) and this process
    # waits for the pager; leaving first would hand the terminal to two programs. Ignored
    # before the pager starts (a Ctrl-C right after it drew its first line interrupted this
    # process), and given back to the pager itself as it starts.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            env=env,
            preexec_fn=_default_interrupt,  # runs in the child only: paging starts no threads
        ) as shown:
            assert shown.stdin is not None
            try:
                shown.stdin.write(text.encode("utf-8", "surrogateescape"))
                shown.stdin.close()
            except BrokenPipeError:
                pass  # the person quit the pager before the end: as git, not an error
            # 126, 127: the shell found no pager to run.
            return shown.wait() not in (126, 127)
    except OSError:
        return False
    finally:
        signal.signal(signal.SIGINT, previous)


def _default_interrupt() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def warn(line: str) -> None:
    """Write one line on stderr now: for work that runs on and has no Result to wait for (a
    server); commands put their warnings in `Result.notes`."""
    _write(sys.stderr, line)


def emit_json(doc: object) -> None:
    """Write one JSON document to stdout: indented for a person at a terminal, compact for a
    pipe (json's C encoder only runs without indent; 10,000 rows take 1 s indented)."""
    indent = 2 if sys.stdout.isatty() else None
    if isinstance(doc, JsonText) and indent is None:
        text = doc.text
    else:
        doc = json.loads(doc.text) if isinstance(doc, JsonText) else doc
        text = json.dumps(doc, indent=indent, ensure_ascii=False)
    # A file name that is not UTF-8 arrives as lone surrogates (os.fsdecode): written raw they
    # would make the document invalid UTF-8. C1 controls and bidirectional overrides in a
    # skill's name would reorder or rewrite what a person running `--json | less` sees. As
    # \u escapes json.loads gives each of them back unchanged.
    # Every such character is past ASCII: a pure-ASCII text (the common one) has none, and
    # isascii() answers for 4 MB in a millisecond where the scan takes 30.
    if not text.isascii():
        text = _JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def lines_of(text: str) -> str:
    """`text` ending in a newline, as printed lines do (empty stays empty): what a text that
    goes on after another's puts between them."""
    return text if not text or text.endswith("\n") else text + "\n"


# What emit_json writes as a \u escape rather than raw: lone surrogates (a file name that is
# not UTF-8, from os.fsdecode), C1 controls, line/paragraph separators, bidi overrides.
_JSON_ESCAPED = re.compile("[\x80-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _write(stream: TextIO, text: str) -> None:
    stream.write(printable(lines_of(text)))
    stream.flush()


class Progress:
    """One status line on stderr that rewrites itself, shown only when stderr is a terminal
    (a pipe or a log gets none of it)."""

    def __init__(self) -> None:
        self.shown = sys.stderr.isatty()

    def show(self, line: str) -> None:
        """Replace the status line with `line`."""
        if self.shown:
            sys.stderr.write(f"\r\033[K{printable(line)}")
            sys.stderr.flush()

    def done(self, line: str) -> None:
        """Replace the status line with `line` for good."""
        if self.shown:
            sys.stderr.write(f"\r\033[K{printable(line)}\n")
            sys.stderr.flush()

    def write(self, data: bytes) -> None:
        """Pass through the progress a library writes itself (dulwich's object counts)."""
        if self.shown:
            sys.stderr.write(data.decode("utf-8", "replace"))
            sys.stderr.flush()

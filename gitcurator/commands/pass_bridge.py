"""The curator pass as a Result, for the commands that run one (`demo`, `maybe-run`).

A stand-in until `gitcurator.commands.run.run(start, *, now, dry_run, consolidate,
progress=None) -> Result` lands: it calls the pass function that prints and keeps what it
printed on stdout (its stderr passes through as it happens). To switch, call `run` at the two
call sites (the text is its `text`, the document its `doc`), importing it inside the function
as here (tests patch the module's attribute), and delete this module.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from gitcurator.output import Result


def pass_result(start: Path, *, now: str, as_json: bool) -> Result:
    """Run a pass at `now` on the repository at `start`; its text, or with `as_json` its
    document (or, if it printed no JSON, what it printed)."""
    from gitcurator.curation import curator_pass

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = curator_pass.run_pass(start, now=now, dry_run=False, as_json=as_json)
    if as_json:
        return Result(code, doc=_parsed(printed.getvalue()))
    return Result(code, text=printed.getvalue())


def _parsed(output: str) -> object:
    try:
        return json.loads(output)
    except ValueError:
        return output or None

"""`gitcurator log`: the audit trail of passes, merges, rollbacks and moves, from git history.

Only commits and their trailers are read, so a fresh clone shows the same trail. Curator
branches not merged yet are walked too and show as passes pending review.
"""

from __future__ import annotations

from pathlib import Path

from gitcurator.audit.passes import read_trail
from gitcurator.audit.trail import Entry
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.render import name_list


def log(start: Path) -> Result:
    """The audit trail, newest first."""
    with open_repo(start) as repo:
        entries = read_trail(repo.store)
    if entries:
        text = "\n".join(entry_line(e) for e in entries)
    else:
        text = "no curator activity yet (`gitcurator run` makes a pass)"
    return Result(text=text, doc=[e.to_json() for e in entries])


def entry_line(e: Entry) -> str:
    """One entry as a line: date, kind, run, what, commit."""
    when = e.time[:16].replace("T", " ")
    what = _what(e)
    status = f"  [{e.status}]" if e.status else ""
    return f"{when}  {e.kind:<8}  {e.run_id or '-':<17}  {what}{status}  {e.commits[0][:12]}"


def _what(e: Entry) -> str:
    names = name_list(e.skills)
    verb = {
        "pass": "archived",
        "rollback": "restored",
        "restore": "restored",
        "archive": "archived",
        "purge": "purged",
        "add": "added",
        "update": "updated",
    }.get(e.kind)
    if verb and names:
        return f"{verb} {names}"
    if e.kind == "pass" and e.branch:
        return f"review {e.branch}"
    return e.subject

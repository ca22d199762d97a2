"""`gitcurator outdated`: which skills taken from upstream changed there, and which here.

Read-only but for the fetch: each source is fetched once into its side ref; nothing on any
branch moves. An unreachable source is reported per skill, and the command still exits 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcurator.commands.upstream_state import Followed, load_followed
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.render import plural


def outdated(start: Path) -> Result:
    """Per followed skill: source moved, changed upstream, edited locally, removed upstream."""
    with open_repo(start) as repo:
        _, followed = load_followed(repo)
    rows = [_row(f) for f in followed]
    if not rows:
        text = "no skill here was added from upstream (`gitcurator add SOURCE NAME` adds one)"
    else:
        stale = [r for r in rows if r["changed_upstream"] or r["removed_upstream"]]
        lines = [f"{f.name}: {_state(f)}" for f in followed]
        if stale:
            lines.append(
                f"{plural(len(stale), 'skill')} changed upstream; "
                "`gitcurator update --dry-run` shows what a merge would do"
            )
        text = "\n".join(lines)
    return Result(text=text, doc={"skills": rows})


def _row(f: Followed) -> dict[str, Any]:
    return {
        "name": f.name,
        "source": f.source.url,
        "path": f.source.path,
        "ref": f.source.ref,
        "recorded_commit": f.source.commit or None,
        "source_commit": f.tip,
        "source_moved": f.moved,
        "changed_upstream": f.changed_upstream,
        "edited_locally": f.edited_locally,
        "removed_upstream": f.removed_upstream,
        "in_library": f.ours is not None,
        "from_lock": f.from_lock,
        "error": f.error,
    }


def _state(f: Followed) -> str:
    if f.error is not None:
        return f"cannot check: {f.error}"
    parts = []
    if f.removed_upstream:
        parts.append(f"removed from {f.shown} (kept here)")
    elif f.changed_upstream:
        parts.append(f"changed in {f.shown} ({f.source.commit[:7]} → {(f.tip or '')[:7]})")
    elif f.base is None:
        parts.append(f"the recorded commit {f.source.commit[:7] or '?'} is not in {f.shown}")
    else:
        parts.append("up to date" if not f.moved else f"up to date ({f.shown} moved, not it)")
    if f.ours is None:
        parts.append("not live in the library")
    elif f.edited_locally:
        parts.append("edited here")
    return ", ".join(parts)

"""Hermes Agent: its home, its counters (.usage.json) and what its plugin hook sees.

Hermes (0.19) keeps per-skill counters in <skills>/.usage.json: `use_count`, `view_count`,
`patch_count` with their `last_*_at` times, `created_at` (a fresh one when a record is
started again) and `created_by` ("agent" when its background review wrote the skill).
`skill_view` bumps both use and view; `skill_manage` patch/edit/write_file/remove_file bumps
patch_count. Plugins get `post_tool_call(tool_name, args, result, tool_call_id, session_id,
status, ...)` after the tool (and its bumps) ran.

One counter step, one event id: the k-th use of a record started at T is
`hermes-usage:<key>:<T>:use:<k>`, whether the plugin saw it live or `ingest hermes` found the
counter grown, so the two never count it twice, and a lost baseline never doubles a count.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gitcurator.agents.events import AgentEvent, canonical_time
from gitcurator.errors import JSON_READ_ERRORS

AGENT = "hermes"
USAGE_FILE = ".usage.json"
PLUGIN_NAME = "gitcurator"
# Hermes counter -> (our kind, its time field)
COUNTERS = {
    "use_count": ("use", "last_used_at"),
    "view_count": ("view", "last_viewed_at"),
    "patch_count": ("edit", "last_patched_at"),
}
MAX_COUNT = 1_000_000  # a counter beyond this is damage, not usage
WRITE_ACTIONS = ("patch", "edit", "write_file", "remove_file")


def home() -> Path:
    """Hermes' folder: $HERMES_HOME, else ~/.hermes."""
    return Path(os.environ.get("HERMES_HOME") or Path.home() / ".hermes")


def skill_of_key(key: str) -> str:
    """Our name for a .usage.json key (`name`, or `category/name`)."""
    return key.rstrip("/").rsplit("/", 1)[-1]


def usage_event_id(key: str, record: Mapping[str, Any], kind: str, step: int) -> str:
    """The id of the `step`-th event of `kind` in Hermes' record `key`."""
    return f"hermes-usage:{key}:{record.get('created_at') or ''}:{kind}:{step}"


def count_of(record: Mapping[str, Any], field: str) -> int | None:
    """A counter's value, or None when it is not a plausible count."""
    value = record.get(field, 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        return None
    return value


def growth(
    usage: Mapping[str, Any], baseline: Mapping[str, Any]
) -> tuple[list[AgentEvent], dict[str, Any], list[str]]:
    """Events for what grew since `baseline`, the new baseline, and problems (pure).

    A record started again (a new `created_at`) grows from zero. A counter lower than its
    baseline (edited by hand) becomes the new baseline, so later growth counts.
    """
    events: list[AgentEvent] = []
    new: dict[str, Any] = {}
    problems: list[str] = []
    for key, record in sorted(usage.items()):
        if not isinstance(record, dict) or not key:
            problems.append(f"{USAGE_FILE}: the entry {key!r} is not a record; skipped")
            continue
        epoch = str(record.get("created_at") or "")
        before = baseline.get(key)
        base = before if isinstance(before, dict) and before.get("epoch") == epoch else {}
        entry: dict[str, Any] = {"epoch": epoch}
        for field, (kind, time_field) in COUNTERS.items():
            now = count_of(record, field)
            was = base.get(field, 0) if isinstance(base.get(field, 0), int) else 0
            if now is None:
                problems.append(f"{USAGE_FILE}: {key}.{field} is not a count; skipped")
                entry[field] = was
                continue
            at = canonical_time(record.get(time_field))
            name = skill_of_key(key)
            events += [
                AgentEvent(kind, name, usage_event_id(key, record, kind, step), at)
                for step in range(was + 1, now + 1)
            ]
            entry[field] = now
        if record.get("created_by") == "agent" and not base:  # once per record, not per run
            events.append(AgentEvent("create", skill_of_key(key), None, canonical_time(epoch)))
        new[key] = entry
    return events, new, problems


def read_usage(skills: Path) -> dict[str, Any]:
    """.usage.json as Hermes reads it: missing or broken means empty."""
    try:
        doc = json.loads((skills / USAGE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


def plugin_events(skills: Path, kwargs: Mapping[str, Any]) -> list[AgentEvent]:
    """The events of one `post_tool_call` (skill_view: a use; skill_manage: create or edit)."""
    tool, args = kwargs.get("tool_name"), kwargs.get("args")
    if not isinstance(args, dict) or kwargs.get("status") not in (None, "ok"):
        return []
    call_id = kwargs.get("tool_call_id") or None
    if tool == "skill_view":
        if args.get("file_path"):
            return []  # a support file read, not the skill loaded
        key: object = _resolved(kwargs.get("result")) or args.get("name")
        return _stepped(skills, key, "use", "use_count", call_id)
    if tool == "skill_manage" and isinstance(args.get("name"), str):
        action = args.get("action")
        if action == "create" and _created_by_agent():
            return [AgentEvent("create", skill_of_key(args["name"]))]
        if action in WRITE_ACTIONS:
            return _stepped(skills, args["name"], "edit", "patch_count", call_id)
    return []


def _stepped(skills: Path, key: object, kind: str, field: str, call_id: object) -> list[AgentEvent]:
    if not isinstance(key, str) or not key:
        return []
    record = read_usage(skills).get(key)
    step = count_of(record, field) if isinstance(record, dict) else None
    event_id: str | None = None
    if isinstance(record, dict) and step:
        event_id = usage_event_id(key, record, kind, step)
    elif isinstance(call_id, str):
        event_id = f"hermes-call:{call_id}"
    return [AgentEvent(kind, skill_of_key(key), event_id)]


def _resolved(result: object) -> str | None:
    """The canonical name skill_view's JSON result gives (None unless it succeeded)."""
    try:
        doc = json.loads(result) if isinstance(result, str) else result
    except JSON_READ_ERRORS:
        return None
    if isinstance(doc, dict) and doc.get("success") and isinstance(doc.get("name"), str):
        return str(doc["name"])
    return None


def _created_by_agent() -> bool:
    """Hermes' own provenance rule: only its background review's skills are the agent's; a
    skill a person asked for in the foreground is theirs. Outside Hermes: the agent's."""
    try:
        from tools.skill_provenance import is_background_review  # type: ignore[import-not-found]
    except ImportError:
        return True
    try:
        return bool(is_background_review())
    except Exception:  # Hermes' internals are not ours to trust
        return True


PLUGIN_YAML = """\
name: gitcurator
version: "1"
description: Reports skill loads and skill writes to gitcurator (git-backed skill curation).
author: gitcurator
provides_hooks:
  - post_tool_call
"""

PLUGIN_INIT = '''\
"""gitcurator's Hermes plugin: every skill_view and skill_manage reaches gitcurator's journal.

Written by `gitcurator connect hermes`; `gitcurator disconnect hermes` removes it. It appends
events through gitcurator's Python API (no process is started) and never fails a tool call.
"""

import sys

REPO = {repo!r}
GITCURATOR_PATH = {path!r}  # where gitcurator was installed when `connect` ran


def _on_post_tool_call(**kwargs):
    try:
        try:
            from gitcurator.agents.hermes_plugin import post_tool_call
        except ImportError:
            if GITCURATOR_PATH not in sys.path:
                sys.path.append(GITCURATOR_PATH)
            from gitcurator.agents.hermes_plugin import post_tool_call
        post_tool_call(REPO, kwargs)
    except Exception:
        pass  # gitcurator logs its own failures to .git/gitcurator/hook.log


def register(ctx):
    ctx.register_hook("post_tool_call", _on_post_tool_call)
'''

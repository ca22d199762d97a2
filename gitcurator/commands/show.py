"""`gitcurator show NAME`: one skill, where it is, its state, provenance (with the upstream
source of a skill `add` took in) and usage."""

from __future__ import annotations

from pathlib import Path

from gitcurator.commands.skill_rows import load_rows
from gitcurator.library import open_repo
from gitcurator.output import Result, failed
from gitcurator.telemetry.names import known_names


def show(start: Path, name: str, *, now: str | None) -> Result:
    """One skill's row (a former name shows the skill it now points to)."""
    with open_repo(start) as repo:
        loaded = load_rows(repo, now)
        row = next((r for r in loaded.rows if r.name == name and r.state != "archived"), None)
        row = row or next((r for r in loaded.rows if r.name == name), None)
        if row is None:
            target = known_names(repo).get(name)
            row = next((r for r in loaded.rows if r.name == target), None)
    if row is None:
        missing = f"no skill named {name} in this repository (see `gitcurator list`)"
        return failed(missing, notes=loaded.warnings)
    doc = row.to_json()
    record = loaded.records.get(row.name)
    if record is not None and record.source is not None:
        # Where `add` took it from (url, path in the source, ref, commit): what `update` follows.
        doc["upstream"] = dict(record.source.value)
    width = max(len(k) for k in doc)
    lines = [f"{name} now resolves to {row.name}"] if row.name != name else []
    lines += [f"{key.ljust(width)}  {_text(value)}" for key, value in doc.items()]
    return Result(text="\n".join(lines), doc=doc, notes=loaded.warnings)


def _text(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
    return str(value)

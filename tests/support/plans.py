"""Pass inputs built in memory (files as blobs in a dict), for tests of the plan step."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime

from gitcurator.config import Config, CuratorPolicy
from gitcurator.curation.pass_inputs import PassInputs
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.store import ObjectID
from support.skill_rows import skill_row

NOW = datetime(2026, 3, 1, tzinfo=UTC)
RUN = "20260301-000000"
CREATED = "2025-10-01T00:00:00Z"  # over archive_after_days before NOW
USED = "2026-02-25T00:00:00Z"

SKILL_MD = """\
---
name: {name}
description: {description}
---

# {name}

{body}
"""


def skill_md(name: str, description: str = "", body: str = "") -> bytes:
    """A SKILL.md that validates."""
    text = SKILL_MD.format(
        name=name,
        description=description or f"Use when a task needs {name}.",
        body=body or f"Steps an agent follows for {name}.",
    )
    return text.encode()


def blob_id(data: bytes) -> ObjectID:
    return ObjectID(hashlib.sha1(data).hexdigest().encode())


def pass_inputs(
    files: Mapping[str, bytes],
    rows: list[SkillRow],
    *,
    config: Config | None = None,
    recorded: Mapping[str, str] | None = None,
) -> PassInputs:
    """A pass at NOW over a tree holding `files` (path -> content), with these rows."""
    blobs = {blob_id(data): data for data in files.values()}
    return PassInputs(
        now=NOW,
        config=config or Config(curator=CuratorPolicy(min_age_days=7)),
        run_id=RUN,
        base_branch="main",
        tip=ObjectID(b"1" * 40),
        tree=ObjectID(b"2" * 40),
        entries={p: (blob_id(d), 0o100644) for p, d in files.items()},
        rows=tuple(sorted(rows, key=lambda r: r.name)),
        recorded=recorded or {},
        read=blobs.__getitem__,
    )


def sibling_library(
    *names: str, idle: tuple[str, ...] = ()
) -> tuple[dict[str, bytes], list[SkillRow]]:
    """Agent-made skills at the top level, each with its SKILL.md; all used lately but `idle`
    (never used since CREATED, so the lifecycle archives them)."""
    files = {}
    rows = []
    for name in (*names, *idle):
        body = f"Run `{name.replace('-', '_')} --all` and check the output of {name}."
        files[f"{name}/SKILL.md"] = skill_md(name, body=body)
        used = None if name in idle else USED
        rows.append(
            skill_row(
                name=name, path=name, created_at=CREATED, last_activity_at=used, last_used_at=used
            )
        )
    return files, rows


def kept_body(files: Mapping[str, bytes], names: tuple[str, ...]) -> str:
    """An umbrella body that keeps every word of the `names` skills in `files` (so the
    retention check accepts it)."""
    return "\n\n".join(
        f"## {n}\n\n" + files[f"{n}/SKILL.md"].decode().split("---\n")[2] for n in names
    )

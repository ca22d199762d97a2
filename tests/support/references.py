"""A library whose skills and AGENTS.md refer to each other, committed as a person would,
with usage recorded: for tests of refs, of the archive that keeps referenced skills and of
folds that rewrite references."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from support.repos import git, run_cli

EPOCH = "2026-01-01T00:00:00Z"
USED = "2026-05-25T00:00:00Z"
NOW = "2026-06-01T00:00:00Z"  # over archive_after_days=90 after EPOCH

SKILL = """\
---
name: {name}
description: {description}
---

# {name}

{body}
"""


def skill_text(name: str, body: str, description: str = "") -> str:
    """A SKILL.md that validates."""
    return SKILL.format(
        name=name, description=description or f"Use when a task needs {name}.", body=body
    )


def committed_library(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    skills: Mapping[str, str],
    files: Mapping[str, str] = {},
    *,
    agents: Sequence[str] = (),
    used: Sequence[str] = (),
) -> Path:
    """`skills` (folder -> body, or a whole SKILL.md) and `files` (path -> text) committed
    at EPOCH and adopted by `init`; `agents` are tracked as agent-made, `used` were used at
    USED."""
    for folder, body in skills.items():
        path = root / folder / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        # A body starting with frontmatter is the whole SKILL.md.
        whole = body.startswith("---\n")
        path.write_text(body if whole else skill_text(folder.rsplit("/", 1)[-1], body))
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, EPOCH)
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "skills", cwd=root)
    assert run_cli("init", str(root), "-q").code == 0
    if agents:
        ok(root, "track", *agents, "--origin", "agent")
    for name in used:
        ok(root, "record", "use", name, "--at", USED)
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var)
    return root


def ok(repo: Path, *args: str) -> str:
    """Run a command on `repo` that must succeed; its stdout."""
    result = run_cli(*args, "-C", str(repo))
    assert result.code == 0, result
    return result.out


def run_json(repo: Path, *args: str) -> dict[str, Any]:
    """`gitcurator run --json --now NOW` (and `args`), which must succeed."""
    doc: dict[str, Any] = json.loads(ok(repo, "run", "--json", "--now", NOW, *args))
    return doc


def configure(
    repo: Path,
    *,
    curator: Mapping[str, Any] = {},
    top: Mapping[str, Any] = {},
    llm: Mapping[str, Any] | None = None,
) -> None:
    """Set `curator.*` keys, top-level keys and (replacing the section) `llm.*` keys in the
    config, and commit it."""
    config = repo / ".gitcurator.yaml"
    head, _, llm_part = config.read_text().partition("llm:\n")
    head = head.replace(
        "curator:\n",
        "curator:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in curator.items()),
    )
    head += "".join(f"{k}: {json.dumps(v)}\n" for k, v in top.items())
    if llm is not None:
        llm_part = "".join(f"  {k}: {json.dumps(v)}\n" for k, v in llm.items())
    config.write_text(head + "llm:\n" + llm_part)
    git("commit", "-qam", "configure", cwd=repo)

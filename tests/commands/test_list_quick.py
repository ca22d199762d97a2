"""commands/list_quick: `list --json` from its kept text says what a full run says (states
judged at the reader's now included), imports neither dulwich nor PyYAML, and steps aside
whenever it cannot be sure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from support.repos import git, run_cli, run_process

from gitcurator import config, statefiles
from gitcurator.commands import list_quick
from gitcurator.commands.list import list_skills, stale_from
from gitcurator.lifecycle import rules
from gitcurator.lifecycle.inventory import SkillRow, row_values, rows_at
from gitcurator.output import JsonText
from gitcurator.store.notes import NOTES_REF
from gitcurator.timeutil import format_time, parse_time


def _text(repo: Path, now: str | None = None) -> str:
    """A full run's JSON text (the quick path never answers a --now)."""
    doc = list_skills(repo, state=None, origin=None, now=now, as_json=True).doc
    return doc.text if isinstance(doc, JsonText) else json.dumps(doc, ensure_ascii=False)


def _quick(repo: Path) -> str | None:
    result, _seen = list_quick.quick_list(repo)
    if result is None:
        return None
    assert isinstance(result.doc, JsonText)
    return result.doc.text


def test_the_names_spelled_without_their_modules_are_theirs() -> None:
    assert list_quick.CONFIG_FILE == config.CONFIG_FILE
    assert NOTES_REF.decode() == list_quick.NOTES_REF
    assert (rules.ACTIVE, rules.STALE) == ("active", "stale")  # _states writes these


def test_a_warm_list_is_a_full_runs_text_and_loads_no_dulwich_or_yaml(agent_repo: Path) -> None:
    assert _quick(agent_repo) is None  # nothing kept yet
    cold = _text(agent_repo)
    assert _quick(agent_repo) == cold
    code = (
        "import sys\nfrom pathlib import Path\n"
        "from gitcurator.commands.list_quick import quick_list\n"
        f"result, _ = quick_list(Path({str(agent_repo)!r}))\n"
        "assert result is not None\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dulwich', 'yaml')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_states_are_judged_again_at_the_readers_now(
    agent_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = json.loads(_text(agent_repo))
    row = next(r for r in created if r["name"] == "pdf-extract")
    assert row["state"] == "active"
    anchor = parse_time(row["last_activity_at"] or row["created_at"])
    # Around the moment it turns stale (30 days idle), a second apart.
    for offset in (-86_400, -1, 0, 1, 2, 86_400 * 400):
        moment = anchor + timedelta(days=30, seconds=offset)
        expected = _text(agent_repo, now=format_time(moment))  # also keeps the text
        monkeypatch.setattr(list_quick, "utc_now", lambda m=moment: m)
        assert _quick(agent_repo) == expected, offset
    states = {r["state"] for r in json.loads(expected)}
    assert "stale" in states


@pytest.mark.parametrize("days", [30, 0.5, 1e-9, 2.5e-7, 0, 10_000_000])
def test_stale_from_is_where_rows_at_turns_a_row_stale(days: float) -> None:
    policy = config.CuratorPolicy(stale_after_days=days)
    found = stale_from(policy)
    values = row_values(SkillRow("p", "p", "active", "agent", False, True, False, 0, 0, 0, *[None] * 7))  # fmt: skip  # noqa: E501
    epoch = parse_time("1970-01-01T00:00:00Z")
    assert found is not None
    for idle in (found - 2, found - 1, found, found + 1):
        state = rows_at([values], [-idle], policy, epoch)[0].state
        assert (state == "stale") == (idle >= found), idle


def test_a_kept_text_for_another_root_or_config_is_not_answered(
    agent_repo: Path, tmp_path: Path
) -> None:
    cold = _text(agent_repo)
    kept = agent_repo / ".git" / statefiles.STATE_DIR / statefiles.LIST_TEXT
    header, _, body = kept.read_bytes().partition(b"\n")
    doc = json.loads(header)
    kept.write_bytes(json.dumps({**doc, "root": str(tmp_path)}).encode() + b"\n" + body)
    assert _quick(agent_repo) is None
    _text(agent_repo)
    assert _quick(agent_repo) == cold
    # The git config may move the work tree or refuse the repository: a change is a miss.
    git("config", "core.quotepath", "false", cwd=agent_repo)
    assert _quick(agent_repo) is None
    git("config", "include.path", "elsewhere.cfg", cwd=agent_repo)
    _text(agent_repo)
    assert _quick(agent_repo) is None  # an include's file is read by nobody here


def test_a_config_file_that_is_a_folder_is_left_to_the_full_run(agent_repo: Path) -> None:
    _text(agent_repo)
    assert _quick(agent_repo) is not None
    (agent_repo / ".gitcurator.yaml").unlink(missing_ok=True)
    (agent_repo / ".gitcurator.yaml").mkdir()
    assert _quick(agent_repo) is None
    done = run_process("list", "--json", "-C", str(agent_repo))
    assert done.returncode == 1 and ".gitcurator.yaml" in done.stderr


def test_a_nested_repository_is_warned_of_as_the_full_run_does(agent_repo: Path) -> None:
    _text(agent_repo)
    nested = agent_repo / "devops" / "vendored"
    nested.mkdir(parents=True)
    git("init", "-q", cwd=nested)
    assert _quick(agent_repo) is None  # whether it is ignored is dulwich's to say
    warm = run_process("list", "--json", "-C", str(agent_repo))
    assert "devops/vendored/" in warm.stderr
    head = git("rev-parse", "HEAD", cwd=agent_repo).stdout.strip()
    git("update-index", "--add", "--cacheinfo", f"160000,{head},linked", cwd=agent_repo)
    (nested / ".git").rename(agent_repo / "moved.git")
    slow = run_cli("list", "--json", "-C", str(agent_repo))
    result, _seen = list_quick.quick_list(agent_repo)
    assert result is not None  # a staged link is read from the index here
    assert result.notes == tuple(n for n in slow.err.splitlines() if n)
    assert "linked/" in slow.err


def test_a_kept_text_nested_past_the_recursion_limit_is_not_answered(agent_repo: Path) -> None:
    _text(agent_repo)
    kept = agent_repo / ".git" / statefiles.STATE_DIR / statefiles.LIST_TEXT
    kept.write_text("[" * 200_000 + "\n")
    assert _quick(agent_repo) is None


@pytest.mark.parametrize("planted", ["folder", "fifo"])
def test_a_journal_that_is_no_file_is_not_keyed_as_no_journal(
    agent_repo: Path, planted: str
) -> None:
    # After a flush the kept text has no journal; a folder or a FIFO in its place was keyed
    # alike, so the warm list answered while the cold one failed (or hung, on the FIFO).
    assert run_cli("flush", "-C", str(agent_repo)).code == 0
    _text(agent_repo)
    journal = agent_repo / ".git" / statefiles.STATE_DIR / statefiles.JOURNAL
    journal.unlink(missing_ok=True)
    if planted == "folder":
        journal.mkdir()
    else:
        os.mkfifo(journal)
    assert _quick(agent_repo) is None
    warm = run_process("list", "--json", cwd=agent_repo)
    assert warm.returncode == 1 and str(journal) in warm.stderr
    assert "Traceback" not in warm.stderr

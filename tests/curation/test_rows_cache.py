"""The rows cache (curation/rows_cache): kept rows equal fresh ones, whatever the clock did to
pending events, and a kept file that is forged, linked or a FIFO is never read."""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import pytest
from support.repos import git, run_cli, run_process, write_skill

from gitcurator import statefiles
from gitcurator.commands.skill_rows import load_kept_rows, load_rows
from gitcurator.curation import rows_cache
from gitcurator.library import open_repo
from gitcurator.lifecycle.inventory import FIELDS
from gitcurator.telemetry import journal, ledger
from gitcurator.telemetry.events import event_line
from gitcurator.timeutil import format_time, utc_now


def _kept(repo: Path, now: str | None = None) -> list[dict[str, object]]:
    with open_repo(repo) as opened:
        return [r.to_json() for r in load_kept_rows(opened, now).rows]


def _fresh(repo: Path, now: str | None = None) -> list[dict[str, object]]:
    with open_repo(repo) as opened:
        return [r.to_json() for r in load_rows(opened, now).rows]


def _uses(rows: list[dict[str, object]], name: str) -> object:
    return next(r["use_count"] for r in rows if r["name"] == name)


@pytest.fixture
def used(repo: Path) -> Path:
    """`repo` with one flushed use of pdf-extract and its rows kept."""
    assert run_cli("record", "use", "pdf-extract", "-C", str(repo)).code == 0
    assert run_cli("flush", "-C", str(repo)).code == 0
    _kept(repo)
    assert (_state(repo) / statefiles.ROWS_CACHE).is_file()
    return repo


def _state(repo: Path) -> Path:
    return repo / ".git" / statefiles.STATE_DIR


def test_kept_rows_equal_fresh_ones(used: Path) -> None:
    assert _kept(used) == _fresh(used) and _uses(_kept(used), "pdf-extract") == 1


def test_an_event_dated_past_the_clock_is_counted_once_the_clock_passes_it(
    used: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ahead = utc_now() + timedelta(days=3)
    host = (_state(used) / statefiles.HOST_FILE).read_text().strip()
    journal.append(_state(used), event_line("use", ["pdf-extract"], format_time(ahead), host))
    assert _uses(_kept(used), "pdf-extract") == 1  # a reader leaves it out meanwhile
    later = ahead + timedelta(days=2)
    monkeypatch.setattr(ledger, "utc_now", lambda: later)
    monkeypatch.setattr(rows_cache, "utc_now", lambda: later)
    assert _uses(_kept(used), "pdf-extract") == 2
    assert _kept(used) == _fresh(used)
    monkeypatch.undo()  # the clock set back: the rows kept at `later` counted it
    assert _uses(_kept(used), "pdf-extract") == 1
    assert _kept(used) == _fresh(used)


def _forge(repo: Path, edit: str) -> Path:
    """The kept file with its key intact and one row's values edited (`edit`)."""
    path = _state(repo) / statefiles.ROWS_CACHE
    doc = json.loads(path.read_bytes())
    row = doc["rows"][[r[0] for r in doc["rows"]].index("pdf-extract")]
    uses = FIELDS.index("use_count")
    if edit == "a count that is no count":
        row[uses] = "many"
    elif edit == "a bool where a count belongs":
        row[uses] = True
    elif edit == "a field short":
        row.pop()
    elif edit == "an idle anchor that is no time":
        doc["anchors"][0] = "yesterday"
    elif edit == "an anchor short":
        doc["anchors"].pop()
    elif edit == "sources of the wrong shape":
        row[FIELDS.index("sources")] = {"cli": -1}
    else:
        row[uses] = 999  # well-formed, kept aside under another name
        other = path.with_name("elsewhere.json")
        other.write_text(json.dumps(doc))
        path.unlink()
        path.symlink_to(other)
        return path
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    "edit",
    [
        "a count that is no count",
        "a bool where a count belongs",
        "a field short",
        "an idle anchor that is no time",
        "an anchor short",
        "sources of the wrong shape",
        "a link to a well-formed file",
    ],
)
def test_a_forged_or_linked_file_is_never_read(used: Path, edit: str) -> None:
    expected = _fresh(used)
    _forge(used, edit)
    assert _kept(used) == expected
    # The command that met it answers exit 0, as a cold run does.
    done = run_cli("list", "--json", "-C", str(used))
    assert done.code == 0 and json.loads(done.out) == expected


def test_a_fifo_at_its_name_does_not_hang(used: Path) -> None:
    path = _state(used) / statefiles.ROWS_CACHE
    path.unlink()
    os.mkfifo(path)
    assert _kept(used) == _fresh(used)


def test_a_read_only_state_folder_gives_the_same_rows(used: Path) -> None:
    expected = _fresh(used)
    (_state(used) / statefiles.ROWS_CACHE).unlink()
    _state(used).chmod(0o500)
    try:
        assert _kept(used) == expected
        assert not (_state(used) / statefiles.ROWS_CACHE).exists() or os.geteuid() == 0
    finally:
        _state(used).chmod(0o755)


def test_list_json_from_kept_texts_is_byte_for_byte_a_cold_run(used: Path) -> None:
    (used / ".archive").mkdir()
    git("mv", "devops/docker-build", ".archive/docker-build", cwd=used)
    git("commit", "-qm", "archived by plain git", cwd=used)
    args = ("list", "--json", "--now", "2031-01-01T00:00:00Z", "-C", str(used))
    cold = run_process(*args)
    warm = run_process(*args)  # the kept rows, their texts joined
    assert cold.returncode == warm.returncode == 0
    assert warm.stdout == cold.stdout and warm.stderr == cold.stderr
    with open_repo(used) as opened:
        assert load_kept_rows(opened, None).texts is not None


def test_status_from_kept_rows_is_a_cold_run_after_plain_git_moves(used: Path) -> None:
    args = ("status", "--json", "--now", "2031-01-01T00:00:00Z", "-C", str(used))
    assert run_process(*args).returncode == 0  # rows kept for this HEAD
    write_skill(used, "coding/new-skill")
    git("add", "-A", cwd=used)
    git("commit", "-qm", "a skill added by plain git", cwd=used)
    assert run_process("record", "use", "new-skill", "-C", str(used)).returncode == 0
    warm = run_process(*args)
    for path in _state(used).iterdir():
        if path.name.endswith(".json") and path.is_file():
            path.unlink()  # every cache: what a cold run starts from
    cold = run_process(*args)
    assert json.loads(warm.stdout)["skills"] == 4
    assert (warm.returncode, warm.stdout, warm.stderr) == (0, cold.stdout, cold.stderr)


def test_a_dry_run_from_kept_rows_is_a_cold_dry_run(used: Path) -> None:
    r = str(used)
    assert run_process("track", "pdf-extract", "--origin", "agent", "-C", r).returncode == 0
    args = ("run", "--dry-run", "--json", "--now", "2031-01-01T00:00:00Z", "-C", r)
    assert run_process("list", "--json", "--now", "2026-01-01T00:00:00Z", "-C", r).returncode == 0
    assert run_process("record", "use", "pdf-extract", "-C", r).returncode == 0
    write_skill(used, "coding/new-skill")
    git("add", "-A", cwd=used)
    git("commit", "-qm", "a skill added by plain git", cwd=used)
    assert run_process("status", "-C", r).returncode == 0  # keeps the rows at the tip
    with open_repo(used) as opened:
        key = rows_cache.rows_key(opened, opened.store.head_commit())
        assert rows_cache.read_rows(opened, key, rows_cache.reader_latest(), utc_now())
    first = run_process(*args)
    warm = run_process(*args)  # a dry run keeps nothing: both read the rows status kept
    for path in _state(used).iterdir():
        if path.name.endswith(".json") and path.is_file():
            path.unlink()
    cold = run_process(*args)
    assert first.returncode == warm.returncode == cold.returncode == 0, cold.stderr
    assert warm.stdout == cold.stdout == first.stdout
    assert '"pdf-extract"' in warm.stdout  # stale at 2031: the plan names it


@pytest.mark.parametrize(
    "names",
    [
        ["pdf-extract", "docker-build"],
        ['odd"quote', "back\\slash", 'brace}, {"name": x', "tab\tand\u2028sep", "é-ü"],
        [],
    ],
)
def test_row_texts_split_each_row_as_encoded_parts_does(names: list[str]) -> None:
    from gitcurator.lifecycle.inventory import SkillRow, encoded_parts, row_values

    rows = [
        SkillRow(n, f"x/{n}", state, "agent", False, True, False, 1, 2, 3, None, None, None,
                 None, "2026-01-01T00:00:00Z", None, None, {'a"}, {"name": ': 1}, 4)
        for n in names
        for state in ("active", "archived")
    ]  # fmt: skip
    assert rows_cache.row_texts(rows) == tuple(encoded_parts(r) for r in rows)
    nul = SkillRow(*[*row_values(rows[0])][:16], "\0", {}, 0) if rows else None
    if nul is not None:  # a value written as the states' opening: no texts, never wrong ones
        assert rows_cache.row_texts([nul]) is None

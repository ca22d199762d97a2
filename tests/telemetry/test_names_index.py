"""names_index + names: the names cache moved to a new HEAD by a tree diff classifies every
name as a cold rebuild does, whatever plain git did behind gitcurator's back."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from support.repos import git, write_skill

from gitcurator.library import open_repo
from gitcurator.skills.document import find_skills
from gitcurator.statefiles import (
    ABSORBED_NAMES,
    NAMES_BUILT,
    NAMES_CACHE,
    NAMES_INDEX,
    RECORDS_CACHE,
)
from gitcurator.telemetry import ledger, names_index, recording
from gitcurator.telemetry.records import UsageRecord

NAMES = [
    "pdf-extract",
    "docker-build",
    "helm-deploy",
    "csv-clean",
    "csv-cleaner",  # csv-clean's frontmatter name
    "sheet-tools",
    "old-pdf",  # absorbed into pdf-extract by its record
    "report-maker",
    "nothing-like-it",
]
CACHES = [NAMES_CACHE, NAMES_INDEX, NAMES_BUILT, ABSORBED_NAMES, RECORDS_CACHE]


def _state(repo: Path) -> Path:
    return repo / ".git" / "gitcurator"


def _classify(repo: Path) -> dict[str, str]:
    """What `record use NAME` does with each name: the kind and skill of the journal line it
    wrote, or 'unknown'."""
    journal = _state(repo) / "journal.jsonl"
    found = {}
    for name in NAMES:
        try:
            recording.record("use", [name], repo=repo)
        except recording.UnknownSkill:
            found[name] = "unknown"
            continue
        last = json.loads(journal.read_bytes().splitlines()[-1])
        found[name] = f"{last['k']}:{','.join(last['n'])}"
    return found


def _cold(repo: Path) -> dict[str, str]:
    for cache in CACHES:
        (_state(repo) / cache).unlink(missing_ok=True)
    return _classify(repo)


def _commit(repo: Path, message: str) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-qm", message, cwd=repo)


@pytest.fixture
def named(repo: Path) -> Path:
    """The `repo` fixture plus a skill with its own frontmatter name and an absorbed name."""
    write_skill(repo, "data/csv-clean", name="csv-cleaner")
    _commit(repo, "add csv-clean")

    def absorb(records: dict[str, UsageRecord]) -> set[str]:
        records["old-pdf"] = replace(UsageRecord("old-pdf"), absorbed_into="pdf-extract")
        return {"old-pdf"}

    with open_repo(repo) as r:
        ledger.update(r.store, absorb, "test: absorb old-pdf")
    return repo


def test_warm_names_follow_plain_git_as_a_cold_rebuild_does(named: Path) -> None:
    repo = named
    assert _classify(repo)["csv-cleaner"] == "use:csv-clean"
    assert _classify(repo)["old-pdf"] == "use:pdf-extract"
    first = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    moved = ("devops/docker-build", "devops/report-maker")
    steps = [
        ("edit a skill, keeping its name", lambda: _append(repo / "pdf-extract/SKILL.md")),
        (
            "rename a skill in its frontmatter",
            lambda: _rename(repo, "data/csv-clean", "sheet-tools"),
        ),
        ("git mv a skill folder", lambda: git("mv", *moved, cwd=repo)),
        ("archive a skill", lambda: _archive(repo, "pdf-extract")),
        ("add a skill", lambda: write_skill(repo, "data/csv-cleaner")),
    ]
    for what, step in steps:
        step()
        _commit(repo, what)
        warm = _classify(repo)
        assert warm == _cold(repo), what
    assert _classify(repo)["pdf-extract"] == "wanted:pdf-extract", "archived: kept as wanted"
    assert _classify(repo)["old-pdf"] == "wanted:pdf-extract", "absorbed into an archived one"
    last = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    for what, args in [
        ("checkout of an older commit", ["checkout", "-q", first]),
        ("checkout back", ["checkout", "-q", last]),
        ("reset --hard to the first commit", ["reset", "-q", "--hard", first]),
    ]:
        git(*args, cwd=repo)
        warm = _classify(repo)
        assert warm == _cold(repo), what
    assert _classify(repo)["pdf-extract"] == "use:pdf-extract", "live again after the reset"


def test_notes_edited_by_git_change_the_absorbed_names(named: Path) -> None:
    repo = named
    assert _classify(repo)["old-pdf"] == "use:pdf-extract"
    key = names_index_key(repo, "old-pdf")
    doc = {"version": 1, "skill": "old-pdf", "hosts": {}}
    git("notes", "--ref", "gitcurator", "add", "-f", "-m", json.dumps(doc), key, cwd=repo)
    warm = _classify(repo)
    assert warm["old-pdf"] == "unknown", "its record no longer says it was absorbed"
    assert warm == _cold(repo)


def names_index_key(repo: Path, name: str) -> str:
    from gitcurator.store.notes import key_id

    return key_id(name)  # the object its note annotates


def _append(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\nOne more step.\n", encoding="utf-8")


def _rename(repo: Path, folder: str, name: str) -> None:
    write_skill(repo, folder, name=name)


def _archive(repo: Path, folder: str) -> None:
    (repo / ".archive").mkdir(exist_ok=True)
    git("mv", folder, f".archive/{folder}", cwd=repo)


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"{",
        b'{"version": 1, "tree": "nope", "files": {}, "titles": {}}',
        b'{"version": 1, "tree": null, "files": [], "titles": {}}',
        b'{"version": 1, "tree": null, "files": {"a/SKILL.md": 7}, "titles": {}}',
        b'{"version": 99, "tree": null, "files": {}, "titles": {}}',
        b"[1, 2, 3]",
        b"\xff\xfe",
    ],
)
def test_a_damaged_names_index_or_built_file_is_rebuilt(named: Path, damage: bytes) -> None:
    repo = named
    expected = _cold(repo)
    _append(repo / "pdf-extract/SKILL.md")
    _commit(repo, "edit")
    (_state(repo) / NAMES_INDEX).write_bytes(damage)
    (_state(repo) / NAMES_BUILT).write_bytes(damage)
    (_state(repo) / ABSORBED_NAMES).write_bytes(damage)
    assert _classify(repo) == expected


def test_a_truncated_names_cache_is_not_kept_for_the_next_head(named: Path) -> None:
    repo = named
    expected = _classify(repo)
    cache = _state(repo) / NAMES_CACHE
    cache.write_text(cache.read_text(encoding="utf-8")[: len(cache.read_text()) // 2])
    _append(repo / "pdf-extract/SKILL.md")
    _commit(repo, "edit")
    # The HEAD line would be rewritten over the lines kept: a cut-short body must not be.
    assert _classify(repo) == expected


def test_symlinked_caches_are_neither_followed_for_writing_nor_trusted(
    named: Path, tmp_path: Path
) -> None:
    repo = named
    expected = _classify(repo)
    outside = tmp_path / "outside.json"
    outside.write_text('{"version": 1, "tree": null, "files": {}, "titles": {}}')
    for cache in (NAMES_INDEX, NAMES_BUILT):
        path = _state(repo) / cache
        path.unlink()
        path.symlink_to(outside)
    _append(repo / "pdf-extract/SKILL.md")
    _commit(repo, "edit")
    assert _classify(repo) == expected
    assert outside.read_text() == '{"version": 1, "tree": null, "files": {}, "titles": {}}'


def test_a_read_only_state_folder_still_classifies_names(named: Path) -> None:
    repo = named
    expected = _cold(repo)
    _append(repo / "pdf-extract/SKILL.md")
    _commit(repo, "edit")
    state = _state(repo)
    os.chmod(state, 0o555)
    try:
        if os.access(state / "probe", os.W_OK) or os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        with pytest.raises(Exception):  # noqa: B017 - the journal cannot be written either
            recording.record("use", ["pdf-extract"], repo=repo)
    finally:
        os.chmod(state, 0o755)
    assert _classify(repo) == expected


def test_a_commit_that_keeps_every_name_only_rewrites_the_head_line(named: Path) -> None:
    repo = named
    _classify(repo)
    body = (_state(repo) / NAMES_CACHE).read_text().split("\n", 1)[1]
    _append(repo / "pdf-extract/SKILL.md")
    _commit(repo, "edit")
    with open_repo(repo) as r:
        index = names_index.skill_files(r.store, r.store.repo[r.store.head_commit()].tree)
        assert not index.moved
    _classify(repo)
    head = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    notes = git("rev-parse", "refs/notes/gitcurator", cwd=repo).stdout.strip()
    first, rest = (_state(repo) / NAMES_CACHE).read_text().split("\n", 1)
    assert first == f"head {head} notes {notes} archived" and rest == body


def test_find_skills_reads_only_the_files_the_index_keeps() -> None:
    paths = [
        "a/SKILL.md",
        "a/b/SKILL.md",
        "a/notes.md",
        "c/skill.md",
        "c/SKILL.md",
        "venv/pyvenv.cfg",
        "venv/lib/x/SKILL.md",
        ".archive/d/SKILL.md",
        ".hidden/e/SKILL.md",
        "f/references/g/SKILL.md",
        "f/SKILL.md",
        "README.md",
    ]
    kept = [p for p in paths if names_index.looked_at(p)]
    for skills_dir, include in [("", ()), ("", (".hidden",)), ("a", ())]:
        assert find_skills(kept, skills_dir, include) == find_skills(paths, skills_dir, include)


def test_the_config_file_name_is_the_configs() -> None:
    from gitcurator.config import CONFIG_FILE
    from gitcurator.telemetry import names

    assert names._CONFIG_FILE == CONFIG_FILE


def test_a_changed_config_is_read_again(named: Path) -> None:
    repo = named
    assert _classify(repo)["pdf-extract"] == "use:pdf-extract"
    config = repo / ".gitcurator.yaml"
    text = config.read_text(encoding="utf-8") if config.exists() else ""
    config.write_text(text + "\nskills_dir: devops\n", encoding="utf-8")
    _commit(repo, "only devops/ holds skills now")
    warm = _classify(repo)
    assert warm == _cold(repo)
    assert warm["pdf-extract"] == "unknown", "outside skills_dir now"


def test_a_notes_edit_by_git_alone_re_points_the_next_record(named: Path) -> None:
    # HEAD stays: only the notes move (`git notes`, or a plain `git fetch` of the notes ref).
    # Asked on its own (no unknown name to force a rebuild first), old-pdf must follow them.
    repo = named
    assert recording.record("use", ["old-pdf"], repo=repo) == ["pdf-extract"]
    doc = {"version": 1, "skill": "old-pdf", "hosts": {}}
    key = names_index_key(repo, "old-pdf")
    git("notes", "--ref", "gitcurator", "add", "-f", "-m", json.dumps(doc), key, cwd=repo)
    with pytest.raises(recording.UnknownSkill):
        recording.record("use", ["old-pdf"], repo=repo)
    undo = {**doc, "absorbed_into": "docker-build"}
    git("notes", "--ref", "gitcurator", "add", "-f", "-m", json.dumps(undo), key, cwd=repo)
    assert recording.record("use", ["old-pdf"], repo=repo) == ["docker-build"]


def test_a_name_whose_blob_was_missing_is_read_once_the_blob_is_here(
    named: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A partial clone's SKILL.md blob is absent until git fetches it; HEAD does not move then.
    # "known by its folder name until it is" must end when the blob arrives.
    repo = named
    _append(repo / "pdf-extract/SKILL.md")
    _commit(repo, "a new HEAD: the next record rebuilds")
    real = names_index._title
    monkeypatch.setattr(names_index, "_title", lambda _store, _blob: None)
    with pytest.raises(recording.UnknownSkill):
        recording.record("use", ["csv-cleaner"], repo=repo)
    monkeypatch.setattr(names_index, "_title", real)
    warm = _classify(repo)
    assert warm["csv-cleaner"] == "use:csv-clean"
    assert warm == _cold(repo)


def test_notes_that_move_while_the_names_are_built_leave_no_stale_cache(
    named: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cache must say which notes its names were built from, not which were there when it
    # was written: a flush (or plain git) between the two would otherwise go unseen.
    repo = named
    _append(repo / "pdf-extract/SKILL.md")
    _commit(repo, "a new HEAD: the next record rebuilds")
    real = names_index.absorbed_names
    doc = {"version": 1, "skill": "old-pdf", "hosts": {}}
    key = names_index_key(repo, "old-pdf")

    def then_the_notes_move(store: object) -> tuple[str | None, dict[str, str]]:
        found = real(store)  # type: ignore[arg-type]
        monkeypatch.setattr(names_index, "absorbed_names", real)
        git("notes", "--ref", "gitcurator", "add", "-f", "-m", json.dumps(doc), key, cwd=repo)
        return found

    monkeypatch.setattr(names_index, "absorbed_names", then_the_notes_move)
    assert recording.record("use", ["pdf-extract"], repo=repo) == ["pdf-extract"]
    with pytest.raises(recording.UnknownSkill):
        recording.record("use", ["old-pdf"], repo=repo)

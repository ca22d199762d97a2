"""`validate`'s caches never change a verdict: after a change made behind gitcurator's back,
a warm run reports exactly what a cold one (caches deleted) does."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.read_only import refuse_opening_in
from support.repos import git, run_cli, write_skill

import gitcurator.commands.validate as validate_command
import gitcurator.commands.validate_cache as validate_cache
from gitcurator import timeutil
from gitcurator.statefiles import VALIDATE_CACHE, VALIDATE_QUICK, VALIDATE_RESULTS
from gitcurator.store import worktree_stat

CACHES = (VALIDATE_CACHE, VALIDATE_RESULTS, VALIDATE_QUICK)
SCRIPTED = """---
name: runner
description: Use when a task needs the runner script.
---
# runner

Run it:

```bash
scripts/run.sh --all
```
"""


@pytest.fixture
def trusting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stat data trusted at once (not after git's racy second), so a test need not wait for
    the records to be used; each change below is made a tick later, as a person's is."""
    monkeypatch.setattr(timeutil, "RACY_NS", 0)


def _state(repo: Path) -> Path:
    return repo / ".git" / "gitcurator"


def _validate(repo: Path, *args: str) -> tuple[int, dict[str, object]]:
    result = run_cli("validate", "--json", "-C", str(repo), *args)
    assert result.code in (0, 1), result
    return result.code, json.loads(result.out)


def _cold(repo: Path, *args: str) -> tuple[int, dict[str, object]]:
    for name in CACHES:
        (_state(repo) / name).unlink(missing_ok=True)
    return _validate(repo, *args)


def _warm_then_cold(repo: Path, *args: str) -> None:
    warm = _validate(repo, *args)
    assert warm == _cold(repo, *args)


def _commit(repo: Path, message: str) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-qm", message, cwd=repo)


def _tick() -> None:
    time.sleep(0.05)  # past the file system's clock tick, so a change shows in ctime


def _runner(repo: Path) -> Path:
    write_skill(repo, "runner", body=SCRIPTED)
    script = repo / "runner" / "scripts" / "run.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho run\n")
    return script


def test_an_unchanged_library_is_answered_without_checking_a_skill(
    repo: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _cold(repo)
    assert (_state(repo) / VALIDATE_CACHE).is_file()

    def no_check(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged library was checked again")

    monkeypatch.setattr(validate_command, "check_tree", no_check)
    assert _validate(repo) == cold


def test_an_unchanged_library_is_answered_from_the_quick_file_alone(
    repo: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_skill(repo, "broken", body="---\nname: broken\n---\n# no description\n")
    cold = _cold(repo)
    assert (_state(repo) / VALIDATE_QUICK).is_file()

    def no_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the per-file records were read for an unchanged library")

    monkeypatch.setattr(validate_cache, "read_cache", no_read)
    assert _validate(repo) == cold
    monkeypatch.undo()
    strict = _validate(repo, "--strict")  # another mode is not answered from it
    assert strict == _cold(repo, "--strict")
    assert strict[1]["mode"] == "strict"


def test_notes_moved_during_a_run_leave_the_quick_answer_unused(
    repo: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A flush or a hook moving the notes while validate runs: the kept answer names the notes
    # it was computed with, so the next run checks again instead of trusting it.
    before = git("rev-parse", "-q", "--verify", "refs/notes/gitcurator", cwd=repo, check=False)
    keep = validate_command._keep_quick

    def notes_move_first(*args: object, **kwargs: object) -> None:
        (repo / ".git" / "other").write_text("other\n")
        blob = git("hash-object", "-w", ".git/other", cwd=repo).stdout.strip()
        git("notes", "--ref=gitcurator", "add", "-f", "-m", "{}", blob, cwd=repo)
        keep(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(validate_command, "_keep_quick", notes_move_first)
    _cold(repo)
    monkeypatch.undo()
    kept = json.loads((_state(repo) / VALIDATE_QUICK).read_text().splitlines()[1])
    assert kept["notes"] == (before.stdout.strip() or None)
    assert kept["notes"] != git("rev-parse", "refs/notes/gitcurator", cwd=repo).stdout.strip()


def test_no_quick_answer_is_kept_for_files_changed_in_its_second(repo: Path) -> None:
    # git's racy rule in force: every file was written within the second of the run.
    _cold(repo)
    assert not (_state(repo) / VALIDATE_QUICK).exists()


def test_an_error_found_cold_is_found_warm(repo: Path, trusting: None) -> None:
    write_skill(repo, "broken", body="---\nname: broken\n---\n# no description\n")
    cold = _cold(repo)
    assert cold[0] == 1
    _tick()
    write_skill(repo, "other")  # another skill changes: the broken one comes from the cache
    warm = _validate(repo)
    assert warm[0] == 1
    assert [f for f in warm[1]["findings"] if "broken" in str(f)]  # type: ignore[attr-defined]
    assert _validate(repo) == warm  # and once more from the whole-library result


def _broken_yaml(repo: Path) -> None:
    (repo / "pdf-extract" / "SKILL.md").write_text("---\nname: [pdf\n---\n# x\n")


def _touch(repo: Path) -> None:
    os.utime(repo / "pdf-extract" / "SKILL.md")


def _chmod(repo: Path) -> None:
    (repo / "runner" / "scripts" / "run.sh").chmod(0o755)


def _symlink_out(repo: Path) -> None:
    script = repo / "runner" / "scripts" / "run.sh"
    script.unlink()
    script.symlink_to("/etc/hostname")


def _reset_hard(repo: Path) -> None:
    git("reset", "-q", "--hard", "HEAD~1", cwd=repo)


def _checkout(repo: Path) -> None:
    git("checkout", "-q", "HEAD~1", "--", ".", cwd=repo)


def _same_size_edit(repo: Path) -> None:
    skill = repo / "pdf-extract" / "SKILL.md"
    text = skill.read_text()
    with skill.open("r+") as f:  # in place: the same inode, the same size
        f.write(text.replace("name: pdf-extract", "name: PDF-extract", 1))


def _same_size_edit_mtime_kept(repo: Path) -> None:
    skill = repo / "pdf-extract" / "SKILL.md"
    before = skill.stat()
    _same_size_edit(repo)
    os.utime(skill, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `touch -r` leaves it


def _commit_by_git(repo: Path) -> None:
    write_skill(repo, "late", body="---\nname: late\ndescription: Fixed by plain git.\n---\n")
    _commit(repo, "fixed behind gitcurator's back")


def _new_file(repo: Path) -> None:
    (repo / "runner" / "notes.md").write_text("See [missing](nowhere/file.md).\n")


def _link_target_goes(repo: Path) -> None:
    (repo / "runner" / "SKILL.md").write_text(SCRIPTED + "\nSee [guide](../guide.md).\n")
    (repo / "guide.md").write_text("guide\n")
    _commit(repo, "a guide outside the skill")
    _tick()
    _validate(repo)  # warm with the guide there
    _tick()
    (repo / "guide.md").unlink()


def _nested_repo_in_a_folder(repo: Path) -> None:
    # Only runner/ changes (it gains .git): its parent's listing still says a plain folder.
    git("init", "-q", str(repo / "runner"), cwd=repo)


def _git_file_in_a_folder(repo: Path) -> None:
    (repo / "devops" / "docker-build" / ".git").write_text("gitdir: /nowhere\n")


def _new_file_in_a_subfolder(repo: Path) -> None:
    # Only scripts/ gains an entry; runner/'s mtime stays.
    (repo / "runner" / "scripts" / "notes.md").write_text("See [missing](nowhere/file.md).\n")


def _file_becomes_folder(repo: Path) -> None:
    script = repo / "runner" / "scripts" / "run.sh"
    script.unlink()
    script.mkdir()
    (script / "SKILL.md").write_text("---\nname: x\n---\n")


def _ignored_by_gitignore(repo: Path) -> None:
    (repo / ".gitignore").write_text("late/\n")


def _ignored_by_exclude(repo: Path) -> None:
    with (repo / ".git" / "info" / "exclude").open("a") as f:
        f.write("late/\n")


def _ignored_by_excludes_file(repo: Path) -> None:
    ignore = repo.parent / "global-ignore"
    ignore.write_text("late/\n")
    git("config", "core.excludesFile", str(ignore), cwd=repo)


def _names_collide(repo: Path) -> None:
    write_skill(repo, "pdf-extract", name="runner")


def _reference_file_names_archived(repo: Path) -> None:
    (repo / ".archive").mkdir(exist_ok=True)
    git("mv", "late", ".archive/late", cwd=repo)
    (repo / "AGENTS.md").write_text("Use skill:late and skill:gone.\n")


def _config_skills_dir(repo: Path) -> None:
    (repo / ".gitcurator.yaml").write_text("skills_dir: devops\n")


def _config_reference_files(repo: Path) -> None:
    (repo / "NOTES.md").write_text("Use skill:gone.\n")
    (repo / ".gitcurator.yaml").write_text("reference_files: [NOTES.md]\n")


@pytest.mark.parametrize(
    "change",
    [
        _broken_yaml,
        _touch,
        _same_size_edit,
        _same_size_edit_mtime_kept,
        _commit_by_git,
        _chmod,
        _symlink_out,
        _reset_hard,
        _checkout,
        _new_file,
        _link_target_goes,
        _nested_repo_in_a_folder,
        _git_file_in_a_folder,
        _new_file_in_a_subfolder,
        _file_becomes_folder,
        _ignored_by_gitignore,
        _ignored_by_exclude,
        _ignored_by_excludes_file,
        _names_collide,
        _reference_file_names_archived,
        _config_skills_dir,
        _config_reference_files,
    ],
)
def test_a_change_behind_gitcurators_back_is_seen(
    repo: Path, trusting: None, change: Callable[[Path], None]
) -> None:
    _runner(repo)
    _commit(repo, "runner")
    # A second commit whose undoing (reset, checkout) changes a verdict: a broken skill.
    write_skill(repo, "late", body="---\nname: late\n---\n# no description\n")
    _commit(repo, "late")
    _cold(repo)
    _tick()
    _validate(repo)  # the caches now hold every skill
    _tick()
    change(repo)
    _warm_then_cold(repo)


def test_a_rewrite_with_the_same_size_and_mtime_is_seen(repo: Path) -> None:
    # The racy case, with git's own rule in force: written in the second the cache was made.
    skill = repo / "pdf-extract" / "SKILL.md"
    good = skill.read_text()
    before = skill.stat()
    _cold(repo)
    bad = good.replace("name: pdf-extract", "name: PDF-extract", 1)
    assert len(bad) == len(good)
    skill.write_text(bad)
    os.utime(skill, ns=(before.st_atime_ns, before.st_mtime_ns))
    warm = _validate(repo)
    assert warm[0] == 1
    assert warm == _cold(repo)


def test_staged_validation_after_an_edit_matches_a_cold_one(repo: Path, trusting: None) -> None:
    _validate(repo, "--staged")
    _tick()
    write_skill(repo, "pdf-extract", body="---\nname: pdf-extract\n---\n# no description\n")
    git("add", "-A", cwd=repo)
    warm = _validate(repo, "--staged")
    assert warm[0] == 1
    assert warm == _cold(repo, "--staged")


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: "garbage\n" + text,
        lambda text: text[: len(text) // 2],
        lambda text: text.replace('"findings":[]', '"findings":[["error"]]', 1),
        lambda text: "",
    ],
)
def test_a_damaged_cache_is_ignored(
    repo: Path, trusting: None, damage: Callable[[str], str]
) -> None:
    write_skill(repo, "broken", body="---\nname: broken\n---\n# no description\n")
    cold = _cold(repo)
    for name in CACHES:
        path = _state(repo) / name
        path.write_text(damage(path.read_text()))
    assert _validate(repo) == cold
    assert _validate(repo) == cold  # rebuilt


def test_a_symlinked_cache_is_not_followed(repo: Path, trusting: None, tmp_path: Path) -> None:
    cold = _cold(repo)
    for name in CACHES:
        path = _state(repo) / name
        planted = tmp_path / name
        planted.write_bytes(path.read_bytes())
        path.unlink()
        path.symlink_to(planted)
    write_skill(repo, "broken", body="---\nname: broken\n---\n# no description\n")
    assert _validate(repo) == _cold(repo)
    assert cold[0] == 0
    assert (tmp_path / VALIDATE_CACHE).read_bytes()  # what the link pointed at is untouched


def test_a_read_only_state_folder_still_validates(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _cold(repo)
    for name in CACHES:  # the quick answer is kept only once the files are a second old
        (_state(repo) / name).unlink(missing_ok=name == VALIDATE_QUICK)
    state = _state(repo)
    refuse_opening_in(monkeypatch, state)
    assert _validate(repo) == cold
    assert _validate(repo) == cold
    assert not any((state / name).exists() for name in CACHES)


def test_staged_reference_files_from_the_staged_config_are_used(repo: Path) -> None:
    # The staged config (not the work tree's, which the cache is keyed by) says which files
    # are reference files; a listing cached under the other globs must not decide.
    (repo / "NOTES.md").write_text("Use skill:gone.\n")
    (repo / ".gitcurator.yaml").write_text("# defaults\n")
    git("add", "-A", cwd=repo)
    _validate(repo, "--staged")
    (repo / ".gitcurator.yaml").write_text("reference_files: [NOTES.md]\n")
    git("add", "-A", cwd=repo)
    (repo / ".gitcurator.yaml").write_text("# defaults\n")
    warm = _validate(repo, "--staged")
    assert warm == _cold(repo, "--staged")
    assert any(f["rule"] == "reference-absent" for f in warm[1]["findings"])  # type: ignore[attr-defined]


def test_ignore_rules_rewritten_in_the_tick_they_were_stat_ed_are_not_trusted(
    repo: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # .git/info/exclude rewritten at the same size in the clock tick its stat was taken shows
    # the same stat data: as with every other record, a stat newer than the record is racy.
    write_skill(repo, "late", body="---\nname: late\n---\n# no description\n")
    soon = time.time_ns() + 10**10
    same = [[soon, soon, 0, 1], None, []]
    monkeypatch.setattr(worktree_stat, "ignore_sources", lambda _store: same)
    _cold(repo)
    _tick()
    _validate(repo)
    (repo / ".git" / "info" / "exclude").write_text("late/\n")
    _warm_then_cold(repo)


def test_a_folder_made_unreadable_is_passed_over_warm_as_cold(
    repo: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chmod changes a folder's ctime, not its mtime. Root reads any folder, so the refusal a
    # user meets (a folder with x but no r: its files open by name, it lists nothing) is made
    # by hand; the chmod is real.
    write_skill(repo, "late", body="---\nname: late\n---\n# no description\n")
    _cold(repo)
    _tick()
    _validate(repo)
    _tick()
    folder = repo / "late"
    folder.chmod(0o311)
    real = os.scandir

    def refusing(path: object = ".") -> object:
        if Path(str(path)) == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", refusing)
    try:
        _warm_then_cold(repo)
    finally:
        folder.chmod(0o755)


def test_edits_too_few_to_rewrite_the_caches_for_are_still_seen(repo: Path, trusting: None) -> None:
    _cold(repo)
    _tick()
    _validate(repo)
    kept = {name: (_state(repo) / name).read_bytes() for name in (VALIDATE_CACHE, VALIDATE_RESULTS)}
    skill = repo / "pdf-extract" / "SKILL.md"
    good = skill.read_text()
    for text, code in (
        ("---\nname: pdf-extract\n---\n# no description\n", 1),
        (good, 0),
        ("---\nname: pdf-extract\ndescription: [broken\n---\n", 1),
        ("---\nname: PDF-extract\ndescription: Use when x.\n---\n", 1),
    ):
        _tick()
        skill.write_text(text)
        warm = _validate(repo)
        assert warm[0] == code
        assert warm == _cold_keeping(repo, kept)
    # One file changed at a time rewrote neither big cache, and every answer was right.
    assert {n: (_state(repo) / n).read_bytes() for n in kept} == kept


def _cold_keeping(repo: Path, kept: dict[str, bytes], *args: str) -> tuple[int, dict[str, object]]:
    """A cold run's answer, the caches the warm run left put back after it."""
    saved = {
        n: (_state(repo) / n).read_bytes()
        for n in (*kept, VALIDATE_QUICK)
        if (_state(repo) / n).exists()
    }
    cold = _cold(repo, *args)
    for name in CACHES:
        (_state(repo) / name).unlink(missing_ok=True)
    for name, data in saved.items():
        (_state(repo) / name).write_bytes(data)
    return cold


def test_staged_edits_too_few_to_rewrite_the_results_for_are_still_seen(
    repo: Path, trusting: None
) -> None:
    _validate(repo)  # the results hold every skill
    skill = repo / "pdf-extract" / "SKILL.md"
    good = skill.read_text()
    for text, code in (("---\nname: pdf-extract\n---\n# no description\n", 1), (good, 0)):
        _tick()
        skill.write_text(text)
        git("add", "-A", cwd=repo)
        warm = _validate(repo, "--staged")
        assert warm[0] == code
        assert warm == _cold_keeping(repo, dict.fromkeys(CACHES, b""), "--staged")

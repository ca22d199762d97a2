"""`validate` after a few edits answers from the last result and the changed skills alone
(commands/validate_delta): its output and exit code are byte for byte a cold run's, for
every kind of edit, and it is the delta that answered the ones it can."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.repos import git, run_cli, write_skill

import gitcurator.commands.validate as validate_command
import gitcurator.commands.validate_delta as validate_delta
from gitcurator import timeutil
from gitcurator.statefiles import VALIDATE_BASE, VALIDATE_QUICK

Answers = list[tuple[int, str, str]]
MODES = ((), ("--json",), ("--strict", "--json"))


def _state(repo: Path) -> Path:
    return repo / ".git" / "gitcurator"


def _snapshot(repo: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in _state(repo).glob("validate-*")}


def _restore(repo: Path, kept: dict[str, bytes]) -> None:
    for p in _state(repo).glob("validate-*"):
        p.unlink()
    for name, data in kept.items():
        (_state(repo) / name).write_bytes(data)


def _answers(repo: Path) -> Answers:
    """validate's exit code, stdout and stderr in each mode, each from the same caches."""
    kept, found = _snapshot(repo), []
    for mode in MODES:
        _restore(repo, kept)
        done = run_cli("validate", "-C", str(repo), *mode)
        found.append((done.code, done.out, done.err))
    return found


def _cold(repo: Path) -> Answers:
    """What _answers gives with no cache at all; the caches are as they were after."""
    kept, found = _snapshot(repo), []
    for mode in MODES:
        _restore(repo, {})
        done = run_cli("validate", "-C", str(repo), *mode)
        found.append((done.code, done.out, done.err))
    _restore(repo, kept)
    return found


def _tick() -> None:
    time.sleep(0.02)  # past the file system's clock tick, so a change shows in ctime


class Spy:
    """Counts whole-library checks and the delta's answers."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = self.delta = 0
        check_tree, answer = validate_command.check_tree, validate_delta._answer

        def counted_check(*args: object, **kwargs: object) -> object:
            self.full += 1
            return check_tree(*args, **kwargs)  # type: ignore[arg-type]

        def counted_answer(*args: object, **kwargs: object) -> object:
            got = answer(*args, **kwargs)  # type: ignore[arg-type]
            self.delta += got is not None
            return got

        monkeypatch.setattr(validate_command, "check_tree", counted_check)
        monkeypatch.setattr(validate_delta, "_answer", counted_answer)


@pytest.fixture
def trusting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stat data trusted at once, not after git's racy second (each change is a tick later)."""
    monkeypatch.setattr(timeutil, "RACY_NS", 0)


def _library(root: Path) -> Path:
    """Skills that refer to one another, an archived one, a reference file, an ignore file, a
    script and a support file: every fact a delta keeps."""
    write_skill(root, "pdf-extract")
    write_skill(root, "devops/docker-build", body=_body("docker-build", "See skill:helm-deploy."))
    write_skill(root, "devops/k8s/helm-deploy")
    write_skill(root, ".archive/old-tool")
    (root / "pdf-extract" / "references").mkdir()
    (root / "pdf-extract" / "references" / "notes.md").write_text("Notes.\n")
    (root / "pdf-extract" / "run.sh").write_text("#!/bin/sh\necho run\n")
    (root / "AGENTS.md").write_text("Use skill:pdf-extract first.\n")
    (root / ".gitignore").write_text("*.tmp\n")
    assert run_cli("init", str(root), "--quiet").code == 0
    return root


def _body(name: str, extra: str = "") -> str:
    return (
        f"---\nname: {name}\ndescription: Use when a task needs {name}.\n---\n# {name}\n{extra}\n"
    )


def _skill_md(repo: Path) -> Path:
    return repo / "pdf-extract" / "SKILL.md"


def edit_body(repo: Path) -> None:
    with _skill_md(repo).open("a") as f:
        f.write(f"\nMore steps {time.time_ns()}.\n")


def rename_to_collide(repo: Path) -> None:
    write_skill(repo, "pdf-extract", name="docker-build")


def rename_back(repo: Path) -> None:
    write_skill(repo, "pdf-extract")


def break_yaml(repo: Path) -> None:
    _skill_md(repo).write_text("---\nname: [pdf\n---\n# x\n")


def refer_to_archived(repo: Path) -> None:
    write_skill(
        repo, "pdf-extract", body=_body("pdf-extract", "Then skill:old-tool, skill:nothing.")
    )


def refer_to_live(repo: Path) -> None:
    write_skill(repo, "pdf-extract", body=_body("pdf-extract", "Then skill:helm-deploy."))


def drop_a_reference(repo: Path) -> None:
    write_skill(repo, "devops/docker-build")


def reference_file_names_archived(repo: Path) -> None:
    (repo / "AGENTS.md").write_text("Use skill:old-tool and skill:gone.\n")


def archived_skill_edited(repo: Path) -> None:
    write_skill(repo, ".archive/old-tool", body=_body("old-tool", "See skill:nothing."))


def support_file_binary(repo: Path) -> None:
    (repo / "pdf-extract" / "references" / "notes.md").write_bytes(b"\x89PNG\x00\x01\xff")


def secret_in_support_file(repo: Path) -> None:
    key = "AKIA" + "Z" * 16
    (repo / "pdf-extract" / "references" / "notes.md").write_text(f"aws_key = {key}\n")


def script_made_executable(repo: Path) -> None:
    (repo / "pdf-extract" / "run.sh").chmod(0o755)


def saved_by_rename(repo: Path) -> None:
    # An editor's safe save: a new file renamed over the old one (the folder's ctime moves).
    tmp = repo / "pdf-extract" / ".SKILL.md.swp"
    tmp.write_text(_body("pdf-extract", f"Saved {time.time_ns()}."))
    os.replace(tmp, _skill_md(repo))


def touched(repo: Path) -> None:
    os.utime(_skill_md(repo))


def skill_added(repo: Path) -> None:
    write_skill(repo, "devops/new-one", body=_body("new-one", "See skill:pdf-extract."))


def skill_deleted(repo: Path) -> None:
    # ignore_errors: a sequence of edits may delete it twice.
    shutil.rmtree(repo / "devops" / "k8s" / "helm-deploy", ignore_errors=True)


def symlink_out(repo: Path) -> None:
    script = repo / "pdf-extract" / "run.sh"
    script.unlink()
    script.symlink_to("/etc/hostname")


def binary_file_added(repo: Path) -> None:
    (repo / "pdf-extract" / "image.png").write_bytes(b"\x89PNG\x00" * 10)


def ignored_file_added(repo: Path) -> None:
    (repo / "pdf-extract" / "scratch.tmp").write_text("ignored\n")


def gitignore_edited(repo: Path) -> None:
    (repo / ".gitignore").write_text("*.tmp\ndevops/k8s/\n")


def staged(repo: Path) -> None:
    edit_body(repo)
    git("add", "-A", cwd=repo)


def committed(repo: Path) -> None:
    edit_body(repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "edit", cwd=repo)


def config_edited(repo: Path) -> None:
    (repo / ".gitcurator.yaml").write_text("reference_files: [AGENTS.md, pdf-extract/**]\n")


# Edits that change what is in files, not which files there are: the delta answers them.
IN_PLACE = [
    edit_body,
    rename_to_collide,
    rename_back,
    break_yaml,
    refer_to_archived,
    refer_to_live,
    drop_a_reference,
    reference_file_names_archived,
    archived_skill_edited,
    support_file_binary,
    secret_in_support_file,
    script_made_executable,
    saved_by_rename,
    touched,
]
# Edits to the listing, the ignore rules, the index or the config: the full path answers.
OTHERS = [
    skill_added,
    skill_deleted,
    symlink_out,
    binary_file_added,
    ignored_file_added,
    gitignore_edited,
    staged,
    committed,
    config_edited,
]


@pytest.mark.parametrize("edit", IN_PLACE + OTHERS)
def test_a_run_after_an_edit_says_what_a_cold_run_says(
    tmp_path: Path, trusting: None, monkeypatch: pytest.MonkeyPatch, edit: Callable[[Path], None]
) -> None:
    repo = _library(tmp_path / "lib")
    _cold(repo)
    run_cli("validate", "-C", str(repo))  # the base, from a whole run
    assert (_state(repo) / VALIDATE_BASE).is_file()
    _tick()
    edit(repo)
    spy = Spy(monkeypatch)
    warm = _answers(repo)
    if edit in IN_PLACE:
        assert spy.delta == len(MODES) - 1  # --strict has no base: made in the other mode
        assert spy.full == 1
    assert warm == _cold(repo)


def test_a_base_too_old_to_be_rewritten_still_answers_each_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every edit within git's racy second of its run: no new base is kept, so each run is a
    # delta from the first base, however many edits it has seen since.
    monkeypatch.setattr(timeutil, "RACY_NS", 0)
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    base = (_state(repo) / VALIDATE_BASE).read_bytes()
    monkeypatch.setattr(timeutil, "RACY_NS", 10**18)
    spy = Spy(monkeypatch)
    edits = (rename_to_collide, refer_to_archived, secret_in_support_file, rename_back)
    for edit in edits:
        _tick()
        edit(repo)
        assert _answers(repo) == _cold(repo)
    assert spy.delta == 2 * len(edits)
    assert (_state(repo) / VALIDATE_BASE).read_bytes() == base


def test_no_base_is_kept_for_files_changed_in_its_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file written in the clock tick its stat was taken keeps that stat through a second
    # write: a base made from it would hide the second one. Git's racy rule, in force here.
    monkeypatch.setattr(timeutil, "RACY_NS", 0)
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    kept = [(_state(repo) / name).read_bytes() for name in (VALIDATE_BASE, VALIDATE_QUICK)]
    monkeypatch.setattr(timeutil, "RACY_NS", 1_000_000_000)
    _tick()
    rename_to_collide(repo)
    spy = Spy(monkeypatch)
    run_cli("validate", "-C", str(repo))
    assert spy.delta == 1
    assert [(_state(repo) / name).read_bytes() for name in (VALIDATE_BASE, VALIDATE_QUICK)] == kept
    assert _answers(repo) == _cold(repo)


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: "garbage\n" + text,
        lambda text: text[: len(text) // 2],
        lambda text: text.replace('"names":["', '"names":[7,"', 1),
        lambda text: text.replace('"kinds":"', '"kinds":"x', 1),
        lambda text: "",
    ],
)
def test_a_damaged_base_is_not_used(
    tmp_path: Path, trusting: None, monkeypatch: pytest.MonkeyPatch, damage: Callable[[str], str]
) -> None:
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    base = _state(repo) / VALIDATE_BASE
    base.write_text(damage(base.read_text()))
    _tick()
    rename_to_collide(repo)
    spy = Spy(monkeypatch)
    assert _answers(repo) == _cold(repo)
    assert spy.delta == 0


def test_a_symlinked_base_is_not_followed(
    tmp_path: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    base = _state(repo) / VALIDATE_BASE
    elsewhere = tmp_path / "elsewhere.json"
    shutil.move(base, elsewhere)
    planted = elsewhere.read_bytes()
    base.symlink_to(elsewhere)
    _tick()
    break_yaml(repo)
    spy = Spy(monkeypatch)
    warm = run_cli("validate", "--json", "-C", str(repo))  # not _answers: it copies the link
    assert spy.delta == 0
    assert elsewhere.read_bytes() == planted  # replaced by a file of its own, not written through
    assert (warm.code, warm.out, warm.err) == _cold(repo)[1]


def test_a_base_from_another_quick_file_is_not_used(
    tmp_path: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The quick file rewritten without its base (a crash between the two writes).
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    old = (_state(repo) / VALIDATE_BASE).read_bytes()
    _tick()
    skill_added(repo)
    run_cli("validate", "-C", str(repo))
    (_state(repo) / VALIDATE_BASE).write_bytes(old)
    _tick()
    rename_to_collide(repo)
    spy = Spy(monkeypatch)
    assert _answers(repo) == _cold(repo)
    assert spy.delta == 0


def test_a_read_only_state_folder_still_answers_after_an_edit(
    tmp_path: Path, trusting: None
) -> None:
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    _tick()
    rename_to_collide(repo)
    _state(repo).chmod(0o555)
    try:
        warm = _answers(repo)
    finally:
        _state(repo).chmod(0o755)
    assert warm == _cold(repo)


EDITS = st.lists(st.sampled_from(IN_PLACE + OTHERS), min_size=1, max_size=4)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=EDITS, racy=st.booleans())
def test_any_sequence_of_edits_says_what_a_cold_run_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edits: list[Callable[[Path], None]], racy: bool
) -> None:
    monkeypatch.setattr(timeutil, "RACY_NS", 0)
    where = Path(tempfile.mkdtemp(dir=tmp_path))
    repo = _library(where / "lib")
    run_cli("validate", "-C", str(repo))
    if racy:  # no base is kept after the first: each run is a delta from it
        monkeypatch.setattr(timeutil, "RACY_NS", 10**18)
    for edit in edits:
        _tick()
        edit(repo)
        assert _answers(repo) == _cold(repo), [e.__name__ for e in edits]
    shutil.rmtree(where)


def test_an_index_rewritten_with_the_same_links_keeps_the_delta(
    tmp_path: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `git status` refreshing the index or `git add` staging an edit rewrites the index: the
    # nested repositories follow only from its submodule links, which stay.
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    _tick()
    staged(repo)
    spy = Spy(monkeypatch)
    assert _answers(repo) == _cold(repo)
    assert spy.delta == 2


def test_a_submodule_link_staged_is_seen(tmp_path: Path, trusting: None) -> None:
    repo = _library(tmp_path / "lib")
    run_cli("validate", "-C", str(repo))
    _tick()
    commit = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    git("update-index", "--add", "--cacheinfo", f"160000,{commit},vendored", cwd=repo)
    warm = _answers(repo)
    assert "nested-repository" in warm[1][1]
    assert warm == _cold(repo)


def test_a_base_saved_by_a_run_in_another_mode_is_not_used(
    tmp_path: Path, trusting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two runs at once on one tree, --strict and not, interleaving their two writes: the
    # plain run's base under the strict run's quick file (the same fingerprint) answered a
    # later --strict run with the plain findings (a warning where cold says error).
    repo = _library(tmp_path / "lib")
    assert run_cli("validate", "-C", str(repo)).code in (0, 1)
    plain_base = (_state(repo) / VALIDATE_BASE).read_bytes()
    run_cli("validate", "--strict", "-C", str(repo))
    (_state(repo) / VALIDATE_BASE).write_bytes(plain_base)
    _tick()
    rename_to_collide(repo)
    spy = Spy(monkeypatch)
    assert _answers(repo) == _cold(repo)
    assert spy.delta == 0

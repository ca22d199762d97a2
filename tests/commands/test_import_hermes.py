"""`gitcurator import hermes` end to end: whole imports of Hermes folders into real repos.

The parts are tested beside their modules, in tests/importers/hermes/."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from support.hermes import hub_lock
from support.repos import CliResult, git, run_cli, write_skill

NOTES = "refs/notes/gitcurator"


USAGE: dict[str, Any] = {
    # agent-made, pinned, with a history older than any commit
    "docker-build": {
        "created_by": "agent",
        "use_count": 5,
        "view_count": 2,
        "patch_count": 3,
        "last_used_at": "2025-05-01T10:00:00+02:00",
        "last_patched_at": "2025-04-01T00:00:00",
        "created_at": "2025-01-01T00:00:00+00:00",
        "pinned": True,
        "state": "active",
    },
    # keyed by its frontmatter name; made by a person (created_by null); epoch time
    "arxiv-search": {"created_by": None, "use_count": 1, "last_viewed_at": 1735689600},
    "old-thing": {
        "created_by": "agent",
        "state": "archived",
        "archived_at": "2025-03-01T00:00:00Z",
        "use_count": 7,
    },
    "helm-deploy": {"use_count": "many", "view_count": 4, "last_used_at": "yesterday"},
    "notes": [1, 2],
    "ghost": {"use_count": 1},
}


@pytest.fixture
def hermes_dir(tmp_path: Path) -> Path:
    """A Hermes skills folder: categories, an archive, usage, hub lock, bundled manifest."""
    root = tmp_path / "hermes-skills"
    write_skill(root, "devops/docker-build")
    write_skill(root, "devops/k8s/helm-deploy")
    write_skill(root, "research/arxiv", name="arxiv-search")
    write_skill(root, "notes")
    write_skill(root, ".archive/old-thing")
    (root / "devops" / "DESCRIPTION.md").write_text("Building and shipping.\n")
    (root / ".usage.json").write_text(json.dumps(USAGE, indent=2))
    (root / ".usage.json.lock").write_text(" ")
    (root / ".hub").mkdir()
    (root / ".hub" / "lock.json").write_text(
        json.dumps(hub_lock(**{"helm-deploy": "devops/k8s/helm-deploy"}))
    )
    (root / ".hub" / "audit.log").write_text("installed helm-deploy\n")
    (root / ".bundled_manifest").write_text("notes:0af3\nremoved-by-user:11\n")
    (root / ".curator_state").write_text('{"last_run_at": null}')
    return root


def _import(*args: str) -> CliResult:
    return run_cli("import", "hermes", *args)


def _rows(repo: Path) -> dict[str, dict[str, Any]]:
    result = run_cli("list", "--json", "-C", str(repo))
    assert result.code == 0, result
    return {row["name"]: row for row in json.loads(result.out)}


def _count(repo: Path, ref: str) -> int:
    return int(git("rev-list", "--count", ref, cwd=repo).stdout)


def _assert_clean(repo: Path) -> None:
    assert git("status", "--porcelain", "--ignored=no", cwd=repo).stdout == ""
    fsck = git("fsck", "--strict", cwd=repo, check=False)
    assert fsck.returncode == 0 and fsck.stderr.strip() == "", fsck.stderr


def _assert_imported(repo: Path) -> None:
    rows = _rows(repo)
    assert set(rows) >= {"docker-build", "helm-deploy", "arxiv", "notes", "old-thing"}
    docker = rows["docker-build"]
    assert (docker["origin"], docker["pinned"], docker["state"]) == ("agent", True, "active")
    assert (docker["use_count"], docker["view_count"]) == (5, 2)
    assert docker["last_used_at"] == "2025-05-01T08:00:00Z"
    # The import's history is older than the repository's first commit, and wins.
    assert docker["created_at"] == "2025-01-01T00:00:00Z"
    assert (docker["patch_count"], docker["last_patched_at"]) == (3, "2025-04-01T00:00:00Z")
    arxiv = rows["arxiv"]
    assert (arxiv["origin"], arxiv["use_count"]) == ("user", 1)
    assert arxiv["last_viewed_at"] == "2025-01-01T00:00:00Z"
    helm = rows["helm-deploy"]  # hub wins; its broken fields dropped, the rest kept
    assert (helm["origin"], helm["use_count"], helm["view_count"]) == ("hub", 0, 4)
    assert rows["notes"]["origin"] == "bundled"
    old = rows["old-thing"]
    assert (old["state"], old["origin"], old["use_count"]) == ("archived", "agent", 7)
    assert old["archived_at"] == "2025-03-01T00:00:00Z"
    assert not any(r["pinned"] for n, r in rows.items() if n != "docker-build")


def test_import_in_place(hermes_dir: Path) -> None:
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert "imported 4 skills (1 archived)" in result.out and "in place" in result.out
    assert "origins: 2 agent, 1 user, 1 bundled, 1 hub; pinned: 1" in result.out
    for problem in (
        "record 'notes' is a list, not an object; skipped",
        "record 'helm-deploy': use_count 'many' is not a whole number",
        "record 'helm-deploy': last_used_at 'yesterday' is not an ISO-8601 time",
        "record 'ghost' names no skill in the folder; skipped",
        ".bundled_manifest lists skills not in the folder, ignored: removed-by-user",
    ):
        assert problem in result.err
    _assert_clean(hermes_dir)
    assert _count(hermes_dir, "HEAD") == 1 and _count(hermes_dir, NOTES) == 1
    assert git("symbolic-ref", "HEAD", cwd=hermes_dir).stdout.strip() == "refs/heads/main"
    log = git("log", "-1", "--format=%s%n%(trailers:key=Curator-Import,valueonly)", cwd=hermes_dir)
    assert log.stdout.split("\n")[:2] == ["gitcurator: import 4 skills from Hermes", "hermes"]
    tracked = git("ls-files", cwd=hermes_dir).stdout.split()
    assert tracked == [
        ".archive/old-thing/SKILL.md",
        ".gitcurator.yaml",
        ".gitignore",
        "devops/DESCRIPTION.md",
        "devops/docker-build/SKILL.md",
        "devops/k8s/helm-deploy/SKILL.md",
        "notes/SKILL.md",
        "research/arxiv/SKILL.md",
    ]
    # Hermes' files stay where Hermes expects them, untouched, and ignored.
    assert json.loads((hermes_dir / ".usage.json").read_text()) == USAGE
    ignored = git("status", "--porcelain", "--ignored", cwd=hermes_dir).stdout
    for name in (".usage.json", ".usage.json.lock", ".hub/", ".bundled_manifest", ".curator_state"):
        assert f"!! {name}\n" in ignored
    assert git("notes", f"--ref={NOTES}", "list", cwd=hermes_dir).stdout.count("\n") == 5
    _assert_imported(hermes_dir)


def test_show_agrees(hermes_dir: Path) -> None:
    assert _import(str(hermes_dir)).code == 0
    result = run_cli("show", "arxiv-search", "--json", "-C", str(hermes_dir))
    assert result.code == 0, result
    assert json.loads(result.out)["name"] == "arxiv"


def test_reimport_is_harmless_and_follows_hermes(hermes_dir: Path) -> None:
    assert _import(str(hermes_dir)).code == 0
    head = git("rev-parse", "HEAD", NOTES, cwd=hermes_dir).stdout
    gitignore = (hermes_dir / ".gitignore").read_text()
    again = _import(str(hermes_dir))
    assert again.code == 0, again
    assert "no changes to commit" in again.out and "records already up to date" in again.out
    assert git("rev-parse", "HEAD", NOTES, cwd=hermes_dir).stdout == head
    assert (hermes_dir / ".gitignore").read_text() == gitignore
    _assert_imported(hermes_dir)
    # gitcurator's own choices survive; events on a real host add to Hermes' counts.
    assert run_cli("unpin", "docker-build", "-C", str(hermes_dir)).code == 0
    assert run_cli("record", "use", "docker-build", "-C", str(hermes_dir)).code == 0
    # Hermes keeps counting and writes a new skill; the import takes both over.
    usage = dict(USAGE, **{"docker-build": dict(USAGE["docker-build"], use_count=8)})
    (hermes_dir / ".usage.json").write_text(json.dumps(usage))
    write_skill(hermes_dir, "devops/new-one")
    third = _import(str(hermes_dir))
    assert third.code == 0, third
    assert _count(hermes_dir, "HEAD") == 2
    rows = _rows(hermes_dir)
    assert rows["docker-build"]["use_count"] == 8 + 1  # replaced, not added, plus the event
    assert rows["docker-build"]["pinned"] is False
    assert rows["new-one"]["origin"] == "user"
    _assert_clean(hermes_dir)


def test_a_skill_hermes_archives_later_moves_on_reimport(hermes_dir: Path) -> None:
    assert _import(str(hermes_dir)).code == 0
    shutil.move(hermes_dir / "research" / "arxiv", hermes_dir / ".archive" / "arxiv")
    usage = dict(USAGE)
    usage["arxiv-search"] = dict(
        usage["arxiv-search"], state="archived", archived_at="2025-06-01T00:00:00+00:00"
    )
    (hermes_dir / ".usage.json").write_text(json.dumps(usage))
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert _count(hermes_dir, "HEAD") == 2 and _count(hermes_dir, NOTES) == 2
    arxiv = _rows(hermes_dir)["arxiv"]
    assert (arxiv["state"], arxiv["path"]) == ("archived", ".archive/arxiv")
    assert (arxiv["archived_at"], arxiv["use_count"]) == ("2025-06-01T00:00:00Z", 1)
    _assert_clean(hermes_dir)


def test_import_into_another_repository(hermes_dir: Path, repo: Path) -> None:
    before = _count(repo, "HEAD")
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 0, result
    assert f"into {repo}" in result.out
    assert not (hermes_dir / ".git").exists() and not (hermes_dir / ".gitignore").exists()
    _assert_clean(repo)
    assert _count(repo, "HEAD") == before + 1 and _count(repo, NOTES) == 1
    tracked = git("ls-files", cwd=repo).stdout.split()
    assert "devops/DESCRIPTION.md" in tracked and ".archive/old-thing/SKILL.md" in tracked
    assert not any(".usage" in p or ".hub" in p or ".curator_state" in p for p in tracked)
    assert "pdf-extract/SKILL.md" in tracked  # the repository's own skills stay
    _assert_imported(repo)
    # Again: the copies are already there and equal, so nothing happens.
    heads = git("rev-parse", "HEAD", NOTES, cwd=repo).stdout
    assert _import(str(hermes_dir), "-C", str(repo)).code == 0
    assert git("rev-parse", "HEAD", NOTES, cwd=repo).stdout == heads


def test_import_into_a_new_folder_creates_the_repository(hermes_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "new" / "library"
    result = _import(str(hermes_dir), "-C", str(target), "--json")
    assert result.code == 0, result
    report = json.loads(result.out)
    assert report["in_place"] is False and report["repository"] == str(target)
    assert report["skills"] == 4 and report["archived"] == 1
    assert report["by_origin"] == {"agent": 2, "user": 1, "bundled": 1, "hub": 1}
    assert report["pinned"] == 1
    assert report["usage_records"] == {"read": 6, "imported": 4, "skipped": 2}
    assert report["commit"] and report["notes_commit"]
    assert len(report["problems"]) == 5
    assert report["validation"] == {"errors": 0, "warnings": 1}  # arxiv: name ≠ folder
    _assert_clean(target)
    assert _count(target, "HEAD") == 1
    _assert_imported(target)


def test_a_skill_that_would_be_overwritten_refuses_everything(hermes_dir: Path, repo: Path) -> None:
    write_skill(repo, "notes", description="Use when taking the repository's own notes.")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "own notes", cwd=repo)
    heads = git("rev-parse", "HEAD", cwd=repo).stdout
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 1, result
    assert "would overwrite or duplicate 1 skill" in result.err
    assert "notes differs from" in result.err and "Nothing was written" in result.err
    assert git("rev-parse", "HEAD", cwd=repo).stdout == heads
    assert git("status", "--porcelain", "--ignored", cwd=repo).stdout == ""
    assert git("show-ref", NOTES, cwd=repo, check=False).returncode == 1


def test_a_second_skill_of_the_same_name_is_refused(hermes_dir: Path, repo: Path) -> None:
    write_skill(repo, "writing/notes")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "notes elsewhere", cwd=repo)
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 1, result
    assert "writing/notes is also named notes" in result.err
    assert git("status", "--porcelain", "--ignored", cwd=repo).stdout == ""


def test_a_loose_file_that_differs_is_kept_and_reported(hermes_dir: Path, repo: Path) -> None:
    (repo / "devops" / "DESCRIPTION.md").write_text("The repository's own words.\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "describe devops", cwd=repo)
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 0, result
    assert "devops/DESCRIPTION.md differs from" in result.err and "kept as it is" in result.err
    assert (repo / "devops" / "DESCRIPTION.md").read_text() == "The repository's own words.\n"
    _assert_clean(repo)


def test_a_hermes_folder_versioned_by_hand(hermes_dir: Path) -> None:
    # Someone committed everything, Hermes' state included, before gitcurator.
    (hermes_dir / ".editorconfig").write_text("root = true\n")
    git("init", "-q", "-b", "main", cwd=hermes_dir)
    git("add", "-A", cwd=hermes_dir)
    git("commit", "-qm", "my hermes skills", cwd=hermes_dir)
    (hermes_dir / ".some_future_state").write_text("Hermes wrote this later")
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert _count(hermes_dir, "HEAD") == 2
    tracked = git("ls-files", cwd=hermes_dir).stdout.split()
    assert ".usage.json" not in tracked and ".hub/lock.json" not in tracked
    assert ".editorconfig" in tracked  # a person's dot-file the repository already tracked
    assert (hermes_dir / ".usage.json").exists()  # left on disk for Hermes
    assert "/.some_future_state" in (hermes_dir / ".gitignore").read_text()
    assert "/.editorconfig" not in (hermes_dir / ".gitignore").read_text()
    _assert_clean(hermes_dir)
    _assert_imported(hermes_dir)


def test_uncommitted_work_in_the_target_refuses_and_is_left_alone(
    hermes_dir: Path, repo: Path
) -> None:
    (repo / "pdf-extract" / "SKILL.md").write_text("work in progress\n")
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 1, result
    assert "uncommitted changes outside the import (pdf-extract/SKILL.md)" in result.err
    assert not (repo / "research").exists() and not (repo / ".archive").exists()
    assert git("status", "--porcelain", cwd=repo).stdout == " M pdf-extract/SKILL.md\n"


def test_validation_errors_refuse_and_leave_the_folder_as_it_was(hermes_dir: Path) -> None:
    write_skill(hermes_dir, "broken", body="no frontmatter here\n")
    before = sorted(p.relative_to(hermes_dir) for p in hermes_dir.rglob("*"))
    result = _import(str(hermes_dir))
    assert result.code == 1, result
    assert "broken/SKILL.md" in result.err and "nothing was written" in result.err
    assert "--no-verify" in result.err
    assert sorted(p.relative_to(hermes_dir) for p in hermes_dir.rglob("*")) == before
    forced = _import(str(hermes_dir), "--no-verify")
    assert forced.code == 0, forced
    assert "broken/SKILL.md" in git("ls-files", cwd=hermes_dir).stdout
    _assert_clean(hermes_dir)


def test_a_usage_file_that_is_not_json_still_imports_the_rest(hermes_dir: Path) -> None:
    (hermes_dir / ".usage.json").write_text('{"docker-build": {"use_count": 5')
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert ".usage.json is not JSON (line 1" in result.err
    rows = _rows(hermes_dir)
    assert rows["helm-deploy"]["origin"] == "hub" and rows["notes"]["origin"] == "bundled"
    assert rows["docker-build"]["origin"] == "user" and rows["docker-build"]["use_count"] == 0


def test_a_folder_without_hermes_files_is_imported_like_init(library: Path) -> None:
    result = _import(str(library))
    assert result.code == 0, result
    assert "imported 3 skills" in result.out and "records already up to date" in result.out
    assert _count(library, "HEAD") == 1
    assert git("show-ref", NOTES, cwd=library, check=False).returncode == 1
    _assert_clean(library)


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_path_must_be_a_folder(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "skills"
    if kind == "file":
        path.write_text("x")
    result = _import(str(path))
    assert result.code == 2, result
    assert "Traceback" not in result.err


def test_a_folder_inside_another_repository_is_refused(hermes_dir: Path, tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    result = _import(str(hermes_dir))
    assert result.code == 1, result
    assert f"overlaps the git repository {tmp_path}" in result.err
    assert "-C NEW-FOLDER" in result.err
    assert not (hermes_dir / ".git").exists() and not (hermes_dir / ".gitignore").exists()


def test_in_place_into_a_repositorys_skills_dir(hermes_dir: Path, tmp_path: Path) -> None:
    # A repository whose skills_dir is the Hermes folder takes it over where it is.
    (tmp_path / ".gitcurator.yaml").write_text("skills_dir: hermes-skills\n")
    git("init", "-q", "-b", "main", cwd=tmp_path)
    git("add", ".gitcurator.yaml", cwd=tmp_path)
    git("commit", "-qm", "config", cwd=tmp_path)
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert "in place" in result.out
    assert (hermes_dir / ".gitignore").exists()
    _assert_clean(tmp_path)
    _assert_imported(tmp_path)


# -- the 177 real Hermes skills -------------------------------------------------------------

# Skills keyed by their frontmatter names, which differ from their folders (4 of the 18).
REAL_KEYS = {
    "serving-llms-vllm": "vllm",
    "evaluating-llms-harness": "lm-evaluation-harness",
    "here.now": "here-now",
    "fine-tuning-with-trl": "trl-fine-tuning",
}


@pytest.fixture(scope="module")
def hermes_library() -> Path:
    """The 177 skills of hermes-agent 0.19.0 (tests/data/fetch.py; skipped when offline)."""
    path = Path(__file__).parents[1] / "data" / "fetch.py"
    spec = importlib.util.spec_from_file_location("gitcurator_test_data_fetch", path)
    assert spec is not None and spec.loader is not None
    fetch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fetch)
    try:
        return Path(fetch.hermes_skills())
    except fetch.FetchError as exc:
        pytest.skip(str(exc))


def test_the_real_hermes_library(hermes_library: Path, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    shutil.copytree(hermes_library, root, symlinks=True)
    usage: dict[str, Any] = {
        name: {"created_by": "agent", "use_count": i + 1, "created_at": "2025-02-01T00:00:00"}
        for i, name in enumerate(REAL_KEYS)
    }
    usage["optional-skills/mlops/accelerate"] = {"view_count": 3}  # a category/name key
    usage["plan"] = {"pinned": True, "use_count": 9}
    (root / ".usage.json").write_text(json.dumps(usage))
    (root / ".bundled_manifest").write_text("plan:aa\nserving-llms-vllm:bb\n")
    result = _import(str(root))  # Hermes' skills give warnings only: no --no-verify needed
    assert result.code == 0, result
    assert "imported 177 skills (0 archived)" in result.out
    assert result.err == ""
    _assert_clean(root)
    assert _count(root, "HEAD") == 1 and _count(root, NOTES) == 1
    rows = _rows(root)
    assert len(rows) == 177
    for i, (key, folder) in enumerate(REAL_KEYS.items()):
        assert rows[folder]["use_count"] == i + 1, key
        assert rows[folder]["created_at"] == "2025-02-01T00:00:00Z"
    assert rows["vllm"]["origin"] == "bundled"  # the manifest wins over created_by
    assert rows["here-now"]["origin"] == "agent"
    assert rows["accelerate"]["view_count"] == 3
    assert (rows["plan"]["pinned"], rows["plan"]["origin"]) == (True, "bundled")
    assert rows["lm-evaluation-harness"]["origin"] == "agent"
    assert sum(r["origin"] == "user" for r in rows.values()) == 177 - 3 - 2

"""`gitcurator demo`: the sample library builds, is valid, holds what it claims, and its pass
archives idle agent skills and nothing a person owns."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.repos import CliResult, git, run_cli

from gitcurator.commands.demo import _target
from gitcurator.demo import catalogue as sample

NOW = "2026-11-30T09:00:00Z"
ARCHIVED = {
    "docker-registry-login",
    "git-lfs-migrate",
    "pandas-groupby-recipes",
    "pdf-redact-text",
}
# Idle long enough to archive, but pdf-extract-tables (live) names it: kept, marked stale.
KEPT = {"pdf-ocr-scans"}
STALE = {
    "citation-bibtex-cleanup",
    "csv-to-parquet",
    "git-bisect-regression",
    "k8s-rollout-debug",
    "pdf-merge-split",
}


class Demo:
    def __init__(self, root: Path, result: CliResult, seconds: float) -> None:
        self.root, self.result, self.seconds = root, result, seconds

    def cli(self, *args: str) -> CliResult:
        return run_cli(*args, "-C", str(self.root))

    def rows(self) -> list[dict[str, Any]]:
        result = self.cli("list", "--json", "--now", NOW)
        assert result.code == 0, result
        rows: list[dict[str, Any]] = json.loads(result.out)
        return rows


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """One demo for the module (it takes seconds), under the same isolation as conftest's
    autouse fixture, which a module-scoped fixture cannot use."""
    home = tmp_path_factory.mktemp("demo-home")
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
        for var in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GITCURATOR_ORIGIN"):
            mp.delenv(var, raising=False)
        root = tmp_path_factory.mktemp("demo") / "library"
        start = time.perf_counter()
        # `-C DIR` is DIR (README: every command takes -C); the refusals below use DIR.
        result = run_cli("demo", "-C", str(root), "--now", NOW)
        yield Demo(root, result, time.perf_counter() - start)


def test_demo_finishes_quickly_and_says_what_to_try(built: Demo) -> None:
    assert built.result.code == 0, built.result
    assert built.seconds < 30
    out = built.result.out
    assert out.startswith(f"built a sample skill library in {built.root}\n")
    assert "32 skills: 26 written by an agent, 4 by you, 2 from a skills hub" in out
    assert "review branch: curator/20261130-090000" in out
    for command in (
        f"git -C {built.root} log --oneline --all",
        f"gitcurator -C {built.root} list --now {NOW}",
        f"gitcurator -C {built.root} merge",
        f"gitcurator -C {built.root} rollback 20261130-090000",
        f"gitcurator -C {built.root} clusters --now {NOW}",
    ):
        assert command in out
    # The clusters step shows siblings at the demo's time, free of any model.
    shown = run_cli("clusters", "--json", "--now", NOW, "-C", str(built.root))
    assert shown.code == 0, shown
    assert any(c["key"] == "pdf" for c in json.loads(shown.out)["clusters"])


def test_demo_library_validates_clean(built: Demo) -> None:
    result = built.cli("validate")
    assert result.code == 0, result
    assert "32 skills checked (default mode): 0 errors, 0 warnings" in result.out
    strict = built.cli("validate", "--strict")
    assert strict.code == 0, strict


def test_demo_library_has_families_origins_pin_and_usage(built: Demo) -> None:
    rows = built.rows()
    names = {r["name"] for r in rows}
    families = Counter(n.split("-")[0] for n in names)
    for family in ("pdf", "docker", "git", "csv"):
        assert families[family] >= 4, family
    assert {r["path"].split("/")[0] for r in rows} >= {"documents", "devops", "data", "research"}
    origins = Counter(r["origin"] for r in rows)
    assert origins == {"agent": 26, "user": 4, "hub": 2}
    assert [r["name"] for r in rows if r["pinned"]] == [sample.PINNED]
    assert sum(r["use_count"] for r in rows) > 400
    assert sum(r["view_count"] for r in rows) > 20
    assert sum(r["use_count"] == 0 for r in rows) == 4  # never used
    recent = [r for r in rows if r["last_used_at"] and r["last_used_at"] >= "2026-11-27"]
    assert len(recent) >= 5
    assert {r["name"] for r in rows if r["patch_count"]} == {"docker-compose-debug"}
    assert min(r["created_at"] for r in rows) == "2026-06-01T09:00:00Z"  # ~6 months back
    # What the pass will judge, as `list` sees it on the main branch:
    assert {r["name"] for r in rows if r["state"] == "stale"} == ARCHIVED | KEPT | STALE


def test_demo_history_reads_like_a_library_that_grew(built: Demo) -> None:
    log = git("log", "--format=%an|%ad|%s", "--date=short", "main", cwd=built.root).stdout
    lines = log.splitlines()
    assert lines[-1] == "demo user|2026-06-01|gitcurator: start curating 4 skills"
    assert (
        "demo user|2026-06-02|Install from the skills hub: excalidraw-diagrams, obsidian-vault"
        in lines
    )
    assert any(line.startswith("demo agent|") and "|Learn " in line for line in lines)
    assert "demo agent|2026-11-12|Update docker-compose-debug: a pitfall learned in use" in lines
    assert git("fsck", "--strict", cwd=built.root).returncode == 0
    assert (built.root / "data/csv-schema-infer/scripts/infer_schema.py").stat().st_mode & 0o111


def test_demo_pass_archives_idle_agent_skills_only(built: Demo) -> None:
    branch = "curator/20261130-090000"
    assert git("branch", "--list", "curator/*", cwd=built.root).stdout.split() == [branch]
    files = git("ls-tree", "-r", "--name-only", branch, cwd=built.root).stdout.splitlines()
    archived = {
        p.split("/")[-2] for p in files if p.startswith(".archive/") and p.endswith("/SKILL.md")
    }
    assert archived == ARCHIVED
    run = json.loads(
        git("show", f"{branch}:.curator/runs/20261130-090000/run.json", cwd=built.root).stdout
    )
    stale = {t["skill"] for t in run["transitions"] if t["to"] == "stale"}
    assert stale == STALE | KEPT
    assert {k["skill"] for k in run["kept"]} == KEPT
    origins = {r["name"]: r for r in built.rows()}
    for name in archived | stale:
        assert origins[name]["origin"] == "agent" and not origins[name]["pinned"]
    kept = {n for n, r in origins.items() if r["origin"] != "agent" or r["pinned"]}
    assert kept & (archived | stale) == set()
    assert f".archive/research/{sample.PINNED}/SKILL.md" not in files
    # The pass changed no branch but its own, and not the work tree.
    assert (built.root / "documents/pdf-ocr-scans/SKILL.md").exists()
    assert git("status", "--porcelain", cwd=built.root).stdout == ""


# -- refusals and the pure parts ----------------------------------------------------------


def test_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = run_cli("demo", str(tmp_path))
    assert result.code == 1
    assert f"{tmp_path} is not empty; give a new or empty folder" in result.err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_minus_c_names_the_folder_and_a_relative_dir_lies_inside_it(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    for args in (("demo", "-C", str(tmp_path / "full")), ("-C", str(tmp_path), "demo", "full")):
        result = run_cli(*args)
        assert result.code == 1, result
        assert f"{tmp_path / 'full'} is not empty" in result.err


def test_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    assert run_cli("demo", str(tmp_path / "f")).code == 2


def test_inside_another_repository_leaves_nothing_behind(tmp_path: Path) -> None:
    outer = tmp_path / "project"
    outer.mkdir()
    git("init", "-q", cwd=outer)
    result = run_cli("demo", str(outer / "skills"))
    assert result.code == 2
    assert "is inside the git repository" in result.err
    assert not (outer / "skills").exists()
    empty = outer / "empty"
    empty.mkdir()
    assert run_cli("demo", str(empty)).code == 2
    assert list(empty.iterdir()) == []


def test_default_folder_is_a_new_temporary_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    folder, created = _target(None)
    assert created and folder.parent == tmp_path and folder.name.startswith("gitcurator-demo-")
    assert list(folder.iterdir()) == []


def test_a_command_that_refuses_while_building_leaves_the_folder_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(skill: sample.DemoSkill, patched: bool = False) -> str:
        return "---\nname: Not_Valid\n---\n"

    monkeypatch.setattr(sample, "skill_md", broken)
    result = run_cli("demo", str(tmp_path))
    assert result.code == 1 and result.out == ""
    assert "error: Skill name 'Not_Valid' must be lowercase (" in result.err
    assert result.err.rstrip().splitlines()[-1].startswith("gitcurator: error: ")
    assert list(tmp_path.iterdir()) == []

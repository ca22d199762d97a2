"""gitcurator on a real library: the 177 skills of the hermes-agent 0.19.0 sdist (MIT).

The data is downloaded once into tests/data/cache/ by tests/data/fetch.py; offline, these
tests are skipped with the reason.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from skills_ref.validator import validate_metadata
from support.repos import git, run_cli

from gitcurator.skills.document import find_skills, parse_skill_md

SKILLS = 177
# Skills whose `name:` is not their folder's name (counted from the data: 14 in
# optional-skills/, 4 in skills/, e.g. mlops/inference/vllm says `name: serving-llms-vllm`).
NAME_FOLDER_MISMATCHES = 18


def _load_fetch() -> ModuleType:
    # tests/data is not a package (and "data" is too common a name to import as one).
    path = Path(__file__).parents[1] / "data" / "fetch.py"
    spec = importlib.util.spec_from_file_location("gitcurator_test_data_fetch", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def hermes_library() -> Path:
    """The hermes skills as a plain folder (read-only: tests work on copies)."""
    fetch = _load_fetch()
    try:
        return Path(fetch.hermes_skills())
    except fetch.FetchError as exc:
        pytest.skip(str(exc))


@pytest.fixture
def hermes_copy(hermes_library: Path, tmp_path: Path) -> Path:
    target = tmp_path / "hermes"
    shutil.copytree(hermes_library, target, symlinks=True)
    return target


@pytest.fixture
def hermes_repo(hermes_copy: Path) -> Path:
    """A copy after `gitcurator init` (--no-verify: tests of init's verdict are separate)."""
    result = run_cli("init", str(hermes_copy), "--quiet", "--no-verify")
    assert result.code == 0, result
    return hermes_copy


def _files(root: Path) -> list[str]:
    return sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() or p.is_symlink()
    )


def _validate_json(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = run_cli("validate", "-C", str(repo), "--json", *args)
    assert result.code in (0, 1), result
    return result.code, json.loads(result.out)


def _mismatches(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in findings if f["message"].startswith("Directory name ")]


def test_all_skills_are_found_up_to_three_category_levels_deep(hermes_library: Path) -> None:
    skills = find_skills(_files(hermes_library))
    assert len(skills) == SKILLS
    assert not any(s.archived for s in skills)
    depths = {s.category.count("/") + 1 for s in skills}
    assert depths == {1, 2, 3}
    assert "optional-skills/mlops/training/trl-fine-tuning" in {s.folder for s in skills}


def test_init_commits_every_skill_as_one_readable_commit(hermes_copy: Path) -> None:
    files = _files(hermes_copy)
    result = run_cli("init", str(hermes_copy))
    assert result.code == 0, result
    assert f"committed {SKILLS} skills" in result.out
    tracked = git("ls-files", cwd=hermes_copy).stdout.splitlines()
    assert sum(1 for p in tracked if p.endswith("/SKILL.md")) == SKILLS
    assert sorted(tracked) == sorted([*files, ".gitcurator.yaml"])
    assert git("status", "--porcelain", cwd=hermes_copy).stdout == ""
    fsck = git("fsck", "--strict", cwd=hermes_copy, check=False)
    assert fsck.returncode == 0, fsck.stderr
    assert fsck.stderr.strip() == ""
    log = git("log", "--oneline", cwd=hermes_copy).stdout.splitlines()
    assert len(log) == 1
    assert log[0].split(" ", 1)[1] == f"gitcurator: start curating {SKILLS} skills"
    # Executable scripts keep their mode, as `git add` would record it.
    stage = git("ls-files", "-s", "skills/productivity/google-workspace/scripts", cwd=hermes_copy)
    modes = {line.split()[3]: line.split()[0] for line in stage.stdout.splitlines()}
    assert modes["skills/productivity/google-workspace/scripts/gws_bridge.py"] == "100755"
    assert modes["skills/productivity/google-workspace/scripts/setup.py"] == "100644"


def test_default_validation_passes_with_name_folder_warnings(hermes_repo: Path) -> None:
    code, report = _validate_json(hermes_repo)
    assert code == 0, [f for f in report["findings"] if f["level"] == "error"]
    assert report["ok"] is True
    assert report["skills_checked"] == SKILLS
    assert report["errors"] == 0
    assert report["warnings"] > 0
    mismatches = _mismatches(report["findings"])
    assert len(mismatches) == NAME_FOLDER_MISMATCHES
    assert {f["level"] for f in mismatches} == {"warning"}
    assert {
        "path": "skills/mlops/inference/vllm/SKILL.md",
        "level": "warning",
        "line": 2,
        "rule": "name",
    }.items() <= next(f for f in mismatches if "vllm" in f["path"]).items()


def _skills_ref_messages(repo: Path, skill_md: str) -> set[str]:
    # skills-ref's own YAML reader (strictyaml) rejects every Hermes file outright (flow-style
    # lists like `platforms: [linux, macos]`), so its rules are applied to what PyYAML reads.
    doc = parse_skill_md((repo / skill_md).read_bytes())
    return set(validate_metadata(doc.frontmatter, Path(repo / skill_md).parent))


def test_strict_validation_reports_spec_departures_in_skills_refs_words(hermes_repo: Path) -> None:
    code, report = _validate_json(hermes_repo, "--strict")
    assert code == 1
    assert report["mode"] == "strict"
    errors: dict[str, set[str]] = {}
    for f in report["findings"]:
        if f["level"] == "error":
            errors.setdefault(f["path"], set()).add(f["message"])
    skill_mds = [s.skill_md for s in find_skills(git("ls-files", cwd=hermes_repo).stdout.split())]
    assert len(skill_mds) == SKILLS
    for skill_md in skill_mds:
        expected = _skills_ref_messages(hermes_repo, skill_md)
        missing = expected - errors.get(skill_md, set())
        assert not missing, f"{skill_md}: skills-ref says {missing}"
    mismatches = _mismatches(report["findings"])
    assert len(mismatches) == NAME_FOLDER_MISMATCHES
    assert {f["level"] for f in mismatches} == {"error"}
    vllm = errors["skills/mlops/inference/vllm/SKILL.md"]
    assert "Directory name 'vllm' must match skill name 'serving-llms-vllm'" in vllm
    assert any(m.startswith("Unexpected fields in frontmatter: author, ") for m in vllm)


def _code_lines(text: str) -> set[int]:
    """1-based numbers of the lines inside fenced code blocks (fences included)."""
    inside, fence, lines = False, "", set()
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not inside and re.match(r"(`{3,}|~{3,})", stripped):
            inside, fence = True, stripped[:3]
            lines.add(number)
        elif inside:
            lines.add(number)
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                inside = False
    return lines


def test_links_in_code_are_not_checked(hermes_repo: Path) -> None:
    # Real examples: code-wiki's fenced page templates link to pages that the skill makes
    # the agent write, e.g. line 157 `See [architecture.md](architecture.md).`
    code_wiki = "optional-skills/software-development/code-wiki/SKILL.md"
    assert _line(hermes_repo, code_wiki, 157) == "See [architecture.md](architecture.md)."
    in_fences = [(code_wiki, n) for n in (157, 167, 349, 350)]
    # Control: the same link in prose is reported; in inline code it is not.
    skill_md = hermes_repo / code_wiki
    text = skill_md.read_text().rstrip("\n")
    prose = text.count("\n") + 3  # after a blank line
    skill_md.write_text(
        f"{text}\n\nSee [architecture.md](architecture.md).\n\n"
        "Write it as `See [architecture.md](architecture.md).` in the page.\n"
    )
    _, report = _validate_json(hermes_repo)
    broken = [f for f in report["findings"] if f["rule"] == "broken-link"]
    reported = {(f["path"], f["line"]) for f in broken}
    assert (code_wiki, prose) in reported
    assert (code_wiki, prose + 2) not in reported
    assert not reported & set(in_fences)
    for f in broken:
        assert f["line"] not in _code_lines((hermes_repo / f["path"]).read_text()), f


def _line(repo: Path, path: str, number: int) -> str:
    return (repo / path).read_text().split("\n")[number - 1]


def test_init_again_is_harmless(hermes_repo: Path) -> None:
    before = git("rev-parse", "HEAD", cwd=hermes_repo).stdout
    result = run_cli("init", str(hermes_repo))
    assert result.code == 0, result
    assert git("rev-parse", "HEAD", cwd=hermes_repo).stdout == before
    assert git("status", "--porcelain", cwd=hermes_repo).stdout == ""
    assert len(git("log", "--oneline", cwd=hermes_repo).stdout.splitlines()) == 1
    assert not os.path.exists(hermes_repo / ".git" / "index.lock")

"""`gitcurator validate` as a command: which skills, which source, what it prints, exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path

from support.repos import git, run_cli, write_skill


def _json(*args: str) -> dict:  # type: ignore[type-arg]
    result = run_cli("validate", "--json", *args)
    doc = json.loads(result.out)
    doc["_code"] = result.code
    return doc


def test_clean_repository_exits_0(repo: Path) -> None:
    result = run_cli("validate", "-C", str(repo))
    assert result.code == 0, result
    assert "3 skills checked (default mode): 0 errors, 0 warnings" in result.out


def test_errors_name_file_and_line_and_exit_1(repo: Path) -> None:
    write_skill(repo, "broken", body="---\nname: broken\n---\n# no description\n")
    result = run_cli("validate", "-C", str(repo))
    assert result.code == 1
    assert "broken/SKILL.md" in result.err
    assert "description" in result.err
    assert "1 error" in result.err


def test_json_output_is_machine_readable(repo: Path) -> None:
    write_skill(repo, "Bad-Name")
    doc = _json("-C", str(repo))
    assert doc["_code"] == 1
    assert doc["ok"] is False
    assert doc["skills_checked"] == 4
    assert doc["errors"] >= 1
    finding = next(f for f in doc["findings"] if f["path"] == "Bad-Name/SKILL.md")
    assert finding["level"] == "error" and finding["rule"] and finding["message"]


def test_paths_select_skills_each_once(repo: Path) -> None:
    write_skill(repo, "broken", body="---\nname: broken\n---\n")
    doc = _json(
        "-C",
        str(repo),
        str(repo / "pdf-extract" / "SKILL.md"),
        str(repo / "pdf-extract"),
        str(repo / "devops"),
        str(repo / ".gitcurator.yaml"),
    )
    assert doc["_code"] == 0
    assert doc["skills_checked"] == 3
    # Pointing at the broken skill brings its error in.
    doc = _json("-C", str(repo), str(repo / "broken" / "SKILL.md"))
    assert doc["_code"] == 1 and doc["skills_checked"] == 1


def test_relative_paths_from_a_subfolder(repo: Path) -> None:
    result = run_cli("validate", "--json", "k8s/helm-deploy/SKILL.md", cwd=repo / "devops")
    assert result.code == 0, result
    assert json.loads(result.out)["skills_checked"] == 1


def test_missing_path_and_outside_path_are_usage_errors(repo: Path, tmp_path: Path) -> None:
    missing = run_cli("validate", "-C", str(repo), str(repo / "nope"))
    assert missing.code == 2 and "no such file or folder" in missing.err
    outside = run_cli("validate", "-C", str(repo), str(repo / ".." / "elsewhere"))
    assert outside.code == 2
    assert "outside the repository" in outside.err or "no such file" in outside.err


def test_duplicate_names_across_folders(repo: Path) -> None:
    write_skill(repo, "other/pdf-extract")
    doc = _json("-C", str(repo))
    dups = [f for f in doc["findings"] if f["rule"] == "duplicate-name"]
    assert {f["path"] for f in dups} == {"pdf-extract/SKILL.md", "other/pdf-extract/SKILL.md"}


def test_strict_reports_what_default_accepts(repo: Path) -> None:
    write_skill(
        repo,
        "hermes-style",
        body=(
            "---\nname: hermes-style\ndescription: d\nversion: 1.0.0\nplatforms: [linux]\n"
            "metadata:\n  hermes:\n    tags: [a]\n---\n# x\n"
        ),
    )
    assert _json("-C", str(repo))["_code"] == 0
    strict = _json("-C", str(repo), "--strict")
    assert strict["_code"] == 1
    assert any("Unexpected fields in frontmatter" in f["message"] for f in strict["findings"])


def test_staged_checks_the_index_not_the_work_tree(repo: Path) -> None:
    skill = repo / "pdf-extract" / "SKILL.md"
    good = skill.read_text()
    skill.write_text("---\nname: pdf-extract\n---\n")  # broken, not staged
    assert run_cli("validate", "--staged", "-C", str(repo)).code == 0
    assert run_cli("validate", "-C", str(repo)).code == 1
    git("add", "-A", cwd=repo)
    skill.write_text(good)  # fixed in the work tree only
    assert run_cli("validate", "--staged", "-C", str(repo)).code == 1
    assert run_cli("validate", "-C", str(repo)).code == 0


def test_staged_honours_git_index_file(repo: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    alt = repo / ".git" / "other-index"
    skill = repo / "pdf-extract" / "SKILL.md"
    skill.write_text("---\nname: pdf-extract\n---\n")
    env = {**os.environ, "GIT_INDEX_FILE": str(alt)}
    import subprocess

    subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
    monkeypatch.setenv("GIT_INDEX_FILE", str(alt))
    assert run_cli("validate", "--staged", "-C", str(repo)).code == 1
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert run_cli("validate", "--staged", "-C", str(repo)).code == 0


def test_symlink_leaving_the_repository_is_an_error(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("x")
    os.symlink(outside, repo / "pdf-extract" / "data.txt")
    os.symlink("../../..", repo / "pdf-extract" / "up")
    doc = _json("-C", str(repo))
    paths = {f["path"] for f in doc["findings"] if f["rule"] == "symlink"}
    assert paths == {"pdf-extract/data.txt", "pdf-extract/up"}
    assert doc["_code"] == 1


def test_symlink_loop_is_reported_not_followed(repo: Path) -> None:
    os.symlink("b", repo / "pdf-extract" / "a")
    os.symlink("a", repo / "pdf-extract" / "b")
    doc = _json("-C", str(repo))
    assert doc["_code"] == 1
    assert {f["path"] for f in doc["findings"] if f["rule"] == "symlink"} == {
        "pdf-extract/a",
        "pdf-extract/b",
    }


def test_secret_in_a_support_file_names_file_and_line_not_the_secret(repo: Path) -> None:
    key = "AKIA" + "Q3EGRTYUIOPLKJHG"
    ref = repo / "pdf-extract" / "references" / "setup.md"
    ref.parent.mkdir()
    ref.write_text(f"# Setup\n\nexport AWS_ACCESS_KEY_ID={key}\n")
    result = run_cli("validate", "-C", str(repo))
    assert result.code == 1
    assert "pdf-extract/references/setup.md:3" in result.err
    assert key not in result.err + result.out


def test_huge_and_binary_support_files(repo: Path) -> None:
    (repo / "pdf-extract" / "assets").mkdir()
    (repo / "pdf-extract" / "assets" / "big.bin").write_bytes(b"\0" * (6 * 1024 * 1024))
    (repo / "pdf-extract" / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    doc = _json("-C", str(repo))
    assert doc["_code"] == 0
    assert [f["path"] for f in doc["findings"] if f["rule"] == "large-file"] == [
        "pdf-extract/assets/big.bin"
    ]


def test_quiet_hides_warnings(repo: Path) -> None:
    write_skill(repo, "renamed", name="other-name")
    assert "warning" in run_cli("validate", "-C", str(repo)).out
    assert "warning:" not in run_cli("validate", "-q", "-C", str(repo)).out

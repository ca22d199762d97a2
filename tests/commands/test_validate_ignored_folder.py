"""`validate PATH` on a skill folder the repository's .gitignore leaves out (a vendored or
cached library) checks that skill on its own, as for a folder in no repository; it is not
reported as missing its SKILL.md."""

from __future__ import annotations

from pathlib import Path

from support.repos import git, run_cli, write_skill


def test_a_git_ignored_skill_folder_is_checked_not_called_empty(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_skill(root, "kept")
    assert run_cli("init", str(root), "-q").code == 0
    (root / ".gitignore").write_text("vendor/\n")
    git("add", ".gitignore", cwd=root)
    git("commit", "-qm", "ignore vendor", cwd=root)
    write_skill(root, "vendor/good")
    write_skill(root, "vendor/bad", body="no frontmatter here\n")

    good = run_cli("validate", "-C", str(root), "vendor/good")
    assert good.code == 0, good
    assert "1 skill checked" in good.out and "Missing required file" not in good.out + good.err

    bad = run_cli("validate", "-C", str(root), "vendor/bad")
    assert bad.code == 1
    assert "Missing required file" not in bad.err
    assert "bad/SKILL.md" in bad.err and "frontmatter" in bad.err.lower()

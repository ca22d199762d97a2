"""`validate --staged` (what both hooks run) judges a staged config change by the config it
stages: folders it brings in are new skills, checked whole."""

from __future__ import annotations

from pathlib import Path

from support.repos import git, run_cli, write_skill


def test_staging_include_of_a_folder_with_a_bad_skill_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    write_skill(root, "good")
    write_skill(root, ".system/bad", body="---\nname: bad\n---\n\n# bad\n")  # no description
    assert run_cli("init", str(root)).code == 0
    assert run_cli("validate", "-C", str(root), "--staged").code == 0
    config = root / ".gitcurator.yaml"
    config.write_text(config.read_text() + "include: [.system]\n")
    git("add", ".gitcurator.yaml", cwd=root)
    result = run_cli("validate", "-C", str(root), "--staged")
    assert result.code == 1, result
    assert ".system/bad/SKILL.md" in result.err
    # The staged config is the one judged: unstaged, the commit would not bring it in.
    git("reset", "-q", "--", ".gitcurator.yaml", cwd=root)
    assert run_cli("validate", "-C", str(root), "--staged").code == 0

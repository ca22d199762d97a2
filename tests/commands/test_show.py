"""`gitcurator show NAME`: one row, found by folder, frontmatter or former name."""

from __future__ import annotations

from pathlib import Path

from support.repos import EPOCH, cli_json, run_cli, write_skill


def test_a_commit_touching_a_skill_is_a_patch(dated_repo: Path) -> None:
    skill = dated_repo / "pdf-extract" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nMore steps.\n")
    assert run_cli("commit", "-m", "improve pdf-extract", "-C", str(dated_repo)).code == 0
    row = cli_json("show", "pdf-extract", "-C", str(dated_repo))
    assert row["patch_count"] == 1
    assert row["last_patched_at"] > EPOCH
    assert row["created_at"] == EPOCH


def test_pinned_skill_is_never_stale(dated_repo: Path) -> None:
    r = str(dated_repo)
    run_cli("track", "pdf-extract", "--origin", "agent", "-C", r)
    run_cli("pin", "pdf-extract", "-C", r)
    row = cli_json("show", "pdf-extract", "-C", r, "--now", "2027-01-01T00:00:00Z")
    assert row["pinned"] is True and row["state"] == "active"


def test_protected_skill_is_never_stale(dated_repo: Path) -> None:
    r = str(dated_repo)
    cfg = dated_repo / ".gitcurator.yaml"
    cfg.write_text(cfg.read_text().replace("protect: []", "protect: [pdf-*]"))
    run_cli("track", "pdf-extract", "--origin", "agent", "-C", r)
    row = cli_json("show", "pdf-extract", "-C", r, "--now", "2027-01-01T00:00:00Z")
    assert row["state"] == "active" and row["protected"] is True


def test_show_by_frontmatter_name_and_unknown(dated_repo: Path) -> None:
    write_skill(dated_repo, "tools/folder-name", name="other-name")
    assert run_cli("commit", "-m", "add", "-C", str(dated_repo)).code == 0
    shown = run_cli("show", "other-name", "-C", str(dated_repo))
    assert shown.code == 0 and "other-name now resolves to folder-name" in shown.out
    missing = run_cli("show", "nope", "-C", str(dated_repo))
    assert missing.code == 1 and "no skill named nope" in missing.err

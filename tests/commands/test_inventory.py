"""`list`, `show`, `status`: rows joined from skills, records and history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.repos import corrupt_note, git, run_cli, write_skill

EPOCH = "2026-01-01T00:00:00Z"


def _json(*args: str) -> object:
    result = run_cli(*args, "--json")
    assert result.code == 0, result
    return json.loads(result.out)


@pytest.fixture
def dated_repo(library: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample library committed at a known time, so created_at is exact."""
    monkeypatch.setenv("GIT_AUTHOR_DATE", EPOCH)
    monkeypatch.setenv("GIT_COMMITTER_DATE", EPOCH)
    git("init", "-q", "-b", "main", cwd=library)
    git("add", "-A", cwd=library)
    git("commit", "-qm", "skills", cwd=library)
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    assert run_cli("init", str(library), "-q").code == 0
    return library


FIELDS = {
    "name",
    "path",
    "state",
    "origin",
    "pinned",
    "use_count",
    "view_count",
    "patch_count",
    "last_used_at",
    "last_viewed_at",
    "last_patched_at",
    "last_activity_at",
    "created_at",
}


def test_list_json_has_every_field_for_every_skill(dated_repo: Path) -> None:
    rows = _json("list", "-C", str(dated_repo))
    assert isinstance(rows, list)
    assert [r["name"] for r in rows] == ["docker-build", "helm-deploy", "pdf-extract"]
    for row in rows:
        assert row.keys() >= FIELDS
        assert row["created_at"] == EPOCH
        assert row["origin"] == "user" and row["state"] == "active"
    assert rows[1]["path"] == "devops/k8s/helm-deploy"


def test_counts_and_state_follow_usage_and_now(dated_repo: Path) -> None:
    r = str(dated_repo)
    assert run_cli("track", "pdf-extract", "docker-build", "--origin", "agent", "-C", r).code == 0
    for at in ("2026-02-01T10:00:00Z", "2026-02-03T10:00:00Z"):
        assert run_cli("record", "use", "pdf-extract", "--at", at, "-C", r).code == 0
    assert (
        run_cli("record", "view", "pdf-extract", "--at", "2026-02-02T00:00:00Z", "-C", r).code == 0
    )
    rows = {x["name"]: x for x in _json("list", "-C", r, "--now", "2026-02-10T00:00:00Z")}  # type: ignore[union-attr]
    pdf = rows["pdf-extract"]
    assert (pdf["use_count"], pdf["view_count"]) == (2, 1)
    assert pdf["last_used_at"] == "2026-02-03T10:00:00Z"
    assert pdf["last_activity_at"] == "2026-02-03T10:00:00Z"
    # docker-build: agent-made, never used, created 40 days before --now: stale.
    assert rows["docker-build"]["state"] == "stale"
    # helm-deploy: a user skill is never curated, so never stale.
    assert rows["helm-deploy"]["state"] == "active"
    later = {x["name"]: x for x in _json("list", "-C", r, "--now", "2026-04-01T00:00:00Z")}  # type: ignore[union-attr]
    assert later["pdf-extract"]["state"] == "stale"
    stale = _json("list", "-C", r, "--state", "stale", "--now", "2026-04-01T00:00:00Z")
    assert [x["name"] for x in stale] == ["docker-build", "pdf-extract"]  # type: ignore[union-attr]
    agents = _json("list", "-C", r, "--origin", "agent")
    assert [x["name"] for x in agents] == ["docker-build", "pdf-extract"]  # type: ignore[union-attr]


def test_a_commit_touching_a_skill_is_a_patch(dated_repo: Path) -> None:
    skill = dated_repo / "pdf-extract" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nMore steps.\n")
    assert run_cli("commit", "-m", "improve pdf-extract", "-C", str(dated_repo)).code == 0
    row = _json("show", "pdf-extract", "-C", str(dated_repo))
    assert row["patch_count"] == 1  # type: ignore[index]
    assert row["last_patched_at"] > EPOCH  # type: ignore[index]
    assert row["created_at"] == EPOCH  # type: ignore[index]


def test_pinned_skill_is_never_stale(dated_repo: Path) -> None:
    r = str(dated_repo)
    run_cli("track", "pdf-extract", "--origin", "agent", "-C", r)
    run_cli("pin", "pdf-extract", "-C", r)
    row = _json("show", "pdf-extract", "-C", r, "--now", "2027-01-01T00:00:00Z")
    assert row["pinned"] is True and row["state"] == "active"  # type: ignore[index]


def test_protected_skill_is_never_stale(dated_repo: Path) -> None:
    r = str(dated_repo)
    cfg = dated_repo / ".gitcurator.yaml"
    cfg.write_text(cfg.read_text().replace("protect: []", "protect: [pdf-*]"))
    run_cli("track", "pdf-extract", "--origin", "agent", "-C", r)
    row = _json("show", "pdf-extract", "-C", r, "--now", "2027-01-01T00:00:00Z")
    assert row["state"] == "active" and row["protected"] is True  # type: ignore[index]


def test_archived_skills_are_listed_as_archived(dated_repo: Path) -> None:
    (dated_repo / ".archive").mkdir()
    git("mv", "pdf-extract", ".archive/pdf-extract", cwd=dated_repo)
    git("commit", "-qm", "archive by hand", cwd=dated_repo)
    rows = {x["name"]: x for x in _json("list", "-C", str(dated_repo))}  # type: ignore[union-attr]
    assert rows["pdf-extract"]["state"] == "archived"
    assert rows["pdf-extract"]["path"] == ".archive/pdf-extract"
    assert _json("list", "-C", str(dated_repo), "--state", "archived")[0]["name"] == "pdf-extract"  # type: ignore[index]


def test_show_by_frontmatter_name_and_unknown(dated_repo: Path) -> None:
    write_skill(dated_repo, "tools/folder-name", name="other-name")
    assert run_cli("commit", "-m", "add", "-C", str(dated_repo)).code == 0
    shown = run_cli("show", "other-name", "-C", str(dated_repo))
    assert shown.code == 0 and "other-name now resolves to folder-name" in shown.out
    missing = run_cli("show", "nope", "-C", str(dated_repo))
    assert missing.code == 1 and "no skill named nope" in missing.err


def test_status_counts_and_tops(dated_repo: Path) -> None:
    r = str(dated_repo)
    run_cli("track", "pdf-extract", "docker-build", "--origin", "agent", "-C", r)
    run_cli("pin", "helm-deploy", "-C", r)
    for _ in range(3):
        run_cli("record", "use", "docker-build", "-C", r)
    doc = _json("status", "-C", r, "--now", "2026-03-01T00:00:00Z")
    assert doc["skills"] == 3  # type: ignore[index]
    assert doc["by_origin"] == {"agent": 2, "user": 1}  # type: ignore[index]
    assert doc["pinned"] == 1  # type: ignore[index]
    assert doc["most_used"][0] == {"name": "docker-build", "use_count": 3}  # type: ignore[index]
    assert doc["least_recently_active"][0]["name"] == "pdf-extract"  # type: ignore[index]
    assert {"last_pass", "paused", "next_due", "by_state"} <= doc.keys()  # type: ignore[union-attr]
    text = run_cli("status", "-C", r)
    assert "by origin: 2 agent, 1 user" in text.out


def test_corrupt_record_warns_and_lists_the_rest(dated_repo: Path) -> None:
    r = str(dated_repo)
    run_cli("record", "use", "pdf-extract", "docker-build", "-C", r)
    run_cli("flush", "-C", r)
    corrupt_note(dated_repo, "pdf-extract", "{not json")
    result = run_cli("list", "--json", "-C", r)
    assert result.code == 0
    assert "record of pdf-extract is invalid" in result.err
    rows = {x["name"]: x for x in json.loads(result.out)}
    assert rows["docker-build"]["use_count"] == 1
    assert rows["pdf-extract"]["use_count"] == 0

"""`gitcurator list`: every skill as a row, filtered by state and origin, as of --now."""

from __future__ import annotations

import json
from pathlib import Path

from support.repos import EPOCH, cli_json, corrupt_note, git, run_cli
from support.skill_rows import skill_row

from gitcurator.commands.list import table

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
    rows = cli_json("list", "-C", str(dated_repo))
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
    rows = {x["name"]: x for x in cli_json("list", "-C", r, "--now", "2026-02-10T00:00:00Z")}
    pdf = rows["pdf-extract"]
    assert (pdf["use_count"], pdf["view_count"]) == (2, 1)
    assert pdf["last_used_at"] == "2026-02-03T10:00:00Z"
    assert pdf["last_activity_at"] == "2026-02-03T10:00:00Z"
    # docker-build: agent-made, never used, created 40 days before --now: stale.
    assert rows["docker-build"]["state"] == "stale"
    # helm-deploy: a user skill is never curated, so never stale.
    assert rows["helm-deploy"]["state"] == "active"
    later = {x["name"]: x for x in cli_json("list", "-C", r, "--now", "2026-04-01T00:00:00Z")}
    assert later["pdf-extract"]["state"] == "stale"
    stale = cli_json("list", "-C", r, "--state", "stale", "--now", "2026-04-01T00:00:00Z")
    assert [x["name"] for x in stale] == ["docker-build", "pdf-extract"]
    agents = cli_json("list", "-C", r, "--origin", "agent")
    assert [x["name"] for x in agents] == ["docker-build", "pdf-extract"]


def test_archived_skills_are_listed_as_archived(dated_repo: Path) -> None:
    (dated_repo / ".archive").mkdir()
    git("mv", "pdf-extract", ".archive/pdf-extract", cwd=dated_repo)
    git("commit", "-qm", "archive by hand", cwd=dated_repo)
    rows = {x["name"]: x for x in cli_json("list", "-C", str(dated_repo))}
    assert rows["pdf-extract"]["state"] == "archived"
    assert rows["pdf-extract"]["path"] == ".archive/pdf-extract"
    assert (
        cli_json("list", "-C", str(dated_repo), "--state", "archived")[0]["name"] == "pdf-extract"
    )


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


def test_the_table_lines_up_a_name_shown_escaped() -> None:
    # A folder named by bytes that are not UTF-8 (or holding a tab) is printed escaped: the
    # column is as wide as what is printed, not as the name Python holds.
    rows = [skill_row(name="caf\udce9"), skill_row(name="tab\there"), skill_row(name="a")]
    lines = table(rows).splitlines()
    assert lines[1].startswith("caf\\xe9      active")
    assert lines[2].startswith("tab\\x09here  active")
    assert {line.index("active") for line in lines[1:]} == {lines[0].index("STATE")}

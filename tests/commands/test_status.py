"""`gitcurator status`: counts by state and origin, pins, the most and least used."""

from __future__ import annotations

from pathlib import Path

from support.repos import cli_json, run_cli


def test_status_counts_and_tops(dated_repo: Path) -> None:
    r = str(dated_repo)
    run_cli("track", "pdf-extract", "docker-build", "--origin", "agent", "-C", r)
    run_cli("pin", "helm-deploy", "-C", r)
    for _ in range(3):
        run_cli("record", "use", "docker-build", "-C", r)
    doc = cli_json("status", "-C", r, "--now", "2026-03-01T00:00:00Z")
    assert doc["skills"] == 3
    assert doc["by_origin"] == {"agent": 2, "user": 1}
    assert doc["pinned"] == 1
    assert doc["most_used"][0] == {"name": "docker-build", "use_count": 3}
    assert doc["least_recently_active"][0]["name"] == "pdf-extract"
    assert {"last_pass", "paused", "next_due", "by_state"} <= doc.keys()
    text = run_cli("status", "-C", r)
    assert "by origin: 2 agent, 1 user" in text.out


def test_status_of_a_library_without_skills_says_so(tmp_path: Path) -> None:
    assert run_cli("init", str(tmp_path), "-q").code == 0
    result = run_cli("status", "-C", str(tmp_path))
    assert result.code == 0, result
    assert result.out.startswith("0 skills: none yet\nby origin: none\n")

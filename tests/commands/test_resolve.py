"""`gitcurator resolve NAME`: frontmatter names, absorbed names, archived skills."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from support.repos import git, run_cli, write_skill

from gitcurator.library import open_repo
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import UsageRecord


def _resolve(repo: Path, name: str) -> dict:  # type: ignore[type-arg]
    result = run_cli("resolve", name, "--json", "-C", str(repo))
    assert result.code == 0, result
    return json.loads(result.out)  # type: ignore[no-any-return]


def test_a_skill_resolves_to_itself(repo: Path) -> None:
    assert _resolve(repo, "pdf-extract") == {
        "name": "pdf-extract",
        "resolves_to": "pdf-extract",
        "path": "pdf-extract",
        "state": "live",
        "via": "itself",
    }
    assert run_cli("resolve", "pdf-extract", "-C", str(repo)).out.strip() == "pdf-extract"


def test_a_frontmatter_name_resolves_to_its_folder(repo: Path) -> None:
    write_skill(repo, "tools/folder-name", name="other-name")
    assert run_cli("commit", "-m", "add", "-C", str(repo)).code == 0
    doc = _resolve(repo, "other-name")
    assert (doc["resolves_to"], doc["path"], doc["via"]) == (
        "folder-name",
        "tools/folder-name",
        "alias",
    )


def test_an_absorbed_name_resolves_to_its_umbrella_and_counts_for_it(repo: Path) -> None:
    (repo / ".archive").mkdir()
    git("mv", "devops/docker-build", ".archive/docker-build", cwd=repo)
    git("commit", "-qm", "fold docker-build into helm-deploy", cwd=repo)
    with open_repo(repo) as opened:

        def absorb(records: dict[str, UsageRecord]) -> set[str]:
            old = records.get("docker-build") or UsageRecord("docker-build")
            records["docker-build"] = replace(old, absorbed_into="helm-deploy")
            return {"docker-build"}

        ledger.update(opened.store, absorb, "absorb")
    doc = _resolve(repo, "docker-build")
    assert (doc["resolves_to"], doc["path"], doc["state"]) == (
        "helm-deploy",
        "devops/k8s/helm-deploy",
        "live",
    )
    assert run_cli("record", "use", "docker-build", "-C", str(repo)).code == 0
    shown = json.loads(run_cli("show", "helm-deploy", "--json", "-C", str(repo)).out)
    assert shown["use_count"] == 1


def test_an_archived_skill_says_how_to_restore(repo: Path) -> None:
    (repo / ".archive").mkdir()
    git("mv", "pdf-extract", ".archive/pdf-extract", cwd=repo)
    git("commit", "-qm", "archive", cwd=repo)
    result = run_cli("resolve", "pdf-extract", "-C", str(repo))
    assert result.code == 0
    assert "archived at .archive/pdf-extract" in result.out
    assert "gitcurator restore pdf-extract" in result.out


def test_unknown_name_exits_1(repo: Path) -> None:
    result = run_cli("resolve", "../etc", "-C", str(repo))
    assert result.code == 1 and "no skill named ../etc" in result.err

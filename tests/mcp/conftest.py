"""A library to serve: skills with support files, symlinks, a binary, a 50 MB file, an archived
skill and a skill absorbed into an umbrella, committed as `gitcurator init` and `merge` do."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.mcp_client import NOTES, PNG
from support.repos import git, run_cli, write_skill

from gitcurator.commands.moves import record_archives
from gitcurator.library import open_repo

BIG = 50 * 1024 * 1024
ARCHIVED_AT = "2026-01-01T00:00:00Z"


@pytest.fixture
def served(tmp_path: Path) -> Path:
    """The repository: pdf-extract (references, symlinks in and out, a PNG), helm-deploy
    (the umbrella docker-build was folded into), big-dataset (a 50 MB file), and
    sourdough-starter archived."""
    root = tmp_path / "skills"
    pdf = write_skill(root, "documents/pdf-extract", description="Extract tables from PDFs.")
    references = pdf.parent / "references"
    references.mkdir()
    (references / "notes.md").write_text(NOTES)
    (references / "inner.md").symlink_to("notes.md")
    (references / "outside").symlink_to("../../../devops")
    (pdf.parent / "assets").mkdir()
    (pdf.parent / "assets" / "logo.png").write_bytes(PNG)
    write_skill(root, "devops/docker-build", description="Build docker images.")
    write_skill(root, "devops/k8s/helm-deploy", description="Deploy charts to Kubernetes.")
    big = write_skill(root, "data/big-dataset", description="Rows of a large dataset.")
    line = b"2026-01-01,row,of,a,dataset,that,nobody,should,read,into,a,context\n"
    (big.parent / "rows.csv").write_bytes(line * (BIG // len(line) + 1))
    write_skill(root, "sourdough-starter", description="Feed a sourdough starter.")
    assert run_cli("init", str(root), "--quiet").code == 0
    (root / ".archive").mkdir()
    git("mv", "sourdough-starter", ".archive/sourdough-starter", cwd=root)
    git("mv", "devops/docker-build", ".archive/docker-build", cwd=root)
    git("commit", "-qm", "archive sourdough-starter; fold docker-build into helm-deploy", cwd=root)
    with open_repo(root) as repo:
        record_archives(
            repo.store,
            {"sourdough-starter": ARCHIVED_AT, "docker-build": ARCHIVED_AT},
            "test: archive and fold",
            {"docker-build": "helm-deploy"},
        )
    return root

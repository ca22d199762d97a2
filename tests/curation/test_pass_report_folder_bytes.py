"""A pass over a library holding a folder whose name is not UTF-8 (git stores any bytes):
REPORT.md gives the name back as those bytes and run.json as JSON's escape, where writing
the report exited 3."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from support.repos import git, run_cli, write_skill

NOW = "2026-06-01T00:00:00Z"
ODD = b"caf\xe9-skill"


def test_a_pass_reports_a_folder_name_that_is_not_utf8(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = tmp_path / "lib"
    write_skill(library, "old-helper")
    odd = os.path.join(os.fsencode(library), ODD)
    os.mkdir(odd)
    with open(os.path.join(odd, b"SKILL.md"), "wb") as file:
        file.write(b"---\nname: cafe-skill\ndescription: Cleans cafe menus.\n---\nbody\n")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
    # The folder name fails validation; --no-verify commits it, as git would.
    assert run_cli("init", str(library), "-q", "--no-verify").code == 0
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    assert run_cli("track", "old-helper", "--origin", "agent", "-C", str(library)).code == 0
    done = run_cli("run", "--json", "--now", NOW, "-C", str(library))
    assert done.code == 0, done.err
    branch = json.loads(done.out)["branch"]
    files = git("ls-tree", "-r", "--name-only", branch, cwd=library).stdout.splitlines()
    report = next(f for f in files if f.endswith("REPORT.md"))
    run_json = next(f for f in files if f.endswith("run.json"))

    def shown(path: str) -> bytes:
        return subprocess.run(
            ["git", "show", f"{branch}:{path}"], cwd=library, capture_output=True, check=True
        ).stdout

    assert b"old-helper" in shown(report)  # archived: never used since January
    assert ODD in shown(report)  # the folder's own bytes, as git lists it
    text = shown(run_json).decode("ascii")  # escaped where not UTF-8: still JSON
    assert "caf\\udce9-skill" in text
    assert os.fsdecode(ODD) in json.dumps(json.loads(text), ensure_ascii=False)
    assert git("fsck", "--strict", cwd=library).returncode == 0

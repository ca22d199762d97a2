"""Kill a pass (SIGKILL) at random points: every ref stays as before or fully updated."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.repos import git, run_cli, write_skill

CREATED = "2026-01-01T00:00:00Z"


def _refs(repo: Path) -> dict[str, str]:
    out = git("for-each-ref", "--format=%(refname) %(objectname)", cwd=repo).stdout
    return dict(line.split() for line in out.splitlines())


@pytest.mark.slow
def test_sigkill_at_random_points_leaves_refs_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "lib"
    for i in range(40):
        write_skill(lib, f"fam{i % 4}/skill-{i}")
    monkeypatch.setenv("GIT_AUTHOR_DATE", CREATED)
    monkeypatch.setenv("GIT_COMMITTER_DATE", CREATED)
    assert run_cli("init", str(lib), "-q").code == 0
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    names = [f"skill-{i}" for i in range(40)]
    assert run_cli("track", *names, "--origin", "agent", "-C", str(lib)).code == 0
    for i, name in enumerate(names[:20]):
        at = f"2026-0{2 + i % 4}-10T00:00:00Z"
        assert run_cli("record", "use", name, "--at", at, "-C", str(lib)).code == 0
    main_before = git("rev-parse", "main", cwd=lib).stdout
    index_before = (lib / ".git" / "index").read_bytes()

    # How long a whole pass takes here, to spread the kills over it.
    start = time.perf_counter()
    assert run_cli("run", "--now", "2026-06-01T00:00:00Z", "--dry-run", "-C", str(lib)).code == 0
    span = max(0.2, (time.perf_counter() - start) * 3)
    rng = random.Random(20261130)
    killed = 0
    for attempt in range(24):
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gitcurator",
                "run",
                "--now",
                "2026-06-01T00:00:00Z",
                "-C",
                str(lib),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0, span))
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            killed += 1
        proc.wait()
        refs = _refs(lib)
        assert refs["refs/heads/main"] == main_before.strip(), f"attempt {attempt}"
        for ref in (r for r in refs if r.startswith("refs/heads/curator/")):
            run_id = ref.rsplit("/", 1)[1]
            # A curator branch exists only complete: its last commit holds the report.
            shown = git("show", f"{ref}:.curator/runs/{run_id}/run.json", cwd=lib, check=False)
            assert shown.returncode == 0, f"attempt {attempt}: {ref} is incomplete"
        if "refs/notes/gitcurator" in refs:
            assert git("notes", "--ref=gitcurator", "list", cwd=lib, check=False).returncode == 0
    assert killed >= 10, f"only {killed} of 24 runs were killed mid-way; the test is too lax"
    assert (lib / ".git" / "index").read_bytes() == index_before
    fsck = git("fsck", "--strict", "--no-dangling", cwd=lib, check=False)
    assert fsck.returncode == 0, fsck.stdout + fsck.stderr
    final = run_cli("run", "--now", "2026-06-01T00:00:00Z", "--json", "-C", str(lib))
    assert final.code == 0, final
    assert git("status", "--porcelain", cwd=lib).stdout == ""

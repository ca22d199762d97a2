"""A curator branch holding one umbrella commit, made with real git the way a pass lays it out:
the folded skills moved whole into .archive/, the umbrella's SKILL.md written, then the report
commit that lists the fold."""

from __future__ import annotations

import json
from pathlib import Path

from support.passes import NOW, RUN
from support.repos import git


def make_umbrella_pass(
    repo: Path, umbrella: str, skill_md: str, folded: tuple[str, ...], run_id: str = RUN
) -> tuple[str, str]:
    """Fold the skill folders `folded` into the folder `umbrella` (new or a live skill's),
    whose SKILL.md becomes `skill_md`. Returns to main; gives (umbrella commit, branch tip)."""
    name = umbrella.rsplit("/", 1)[-1]
    names = [f.rsplit("/", 1)[-1] for f in folded]
    git("checkout", "-q", "-b", f"curator/{run_id}", cwd=repo)
    for folder in folded:
        (repo / ".archive" / folder).parent.mkdir(parents=True, exist_ok=True)
        git("mv", folder, f".archive/{folder}", cwd=repo)
    (repo / umbrella).mkdir(parents=True, exist_ok=True)
    (repo / umbrella / "SKILL.md").write_text(skill_md)
    git("add", umbrella, cwd=repo)
    trailers = [f"Curator-Run: {run_id}", f"Curator-Umbrella: {name}"]
    trailers += [f"Curator-Absorbed-Into: {n} -> {name}" for n in names]
    message = f"curator: fold {', '.join(names)} into {name}\n\n" + "\n".join(trailers)
    git("commit", "-q", "-m", message, cwd=repo)
    fold = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    runs = repo / ".curator" / "runs" / run_id
    runs.mkdir(parents=True)
    (runs / "REPORT.md").write_text(f"# Curator pass {run_id}\n")
    doc = {
        "run_id": run_id,
        "now": NOW,
        "transitions": [],
        "consolidations": [{"umbrella": name, "absorbed": names, "demoted": []}],
    }
    (runs / "run.json").write_text(json.dumps(doc))
    git("add", ".curator", cwd=repo)
    report = f".curator/runs/{run_id}/REPORT.md"
    git(
        "commit",
        "-q",
        "-m",
        f"curator: report for run {run_id}\n\nCurator-Run: {run_id}\nCurator-Report: {report}",
        cwd=repo,
    )
    tip = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    git("checkout", "-q", "main", cwd=repo)
    return fold, tip

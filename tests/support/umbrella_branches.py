"""A curator branch holding one umbrella commit, made with real git the way a pass lays it out:
the folded skills moved whole into .archive/, the umbrella's SKILL.md written, then the report
commit that lists the fold."""

from __future__ import annotations

from pathlib import Path

from support.passes import NOW, RUN, commit_report
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
    doc = {
        "run_id": run_id,
        "now": NOW,
        "transitions": [],
        "consolidations": [{"umbrella": name, "absorbed": names, "demoted": []}],
    }
    return fold, commit_report(repo, run_id, doc)

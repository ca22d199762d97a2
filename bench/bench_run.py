"""Time a curator pass over N skills with M due for archive, against the same moves by git.

Usage: python bench/bench_run.py [--skills N] [--due M] [--repeat R] [--keep DIR | --reuse DIR]

Builds the library once (bench/make_library.py) committed months ago, marks every skill
agent-made, records a recent use of all but M of them and flushes: that repository is the
base state (`--keep DIR` keeps it, `--reuse DIR` starts from one kept before). Every
measured command runs as a real process on its own copy of a state, so each of the R rounds
(median and spread reported; each round runs every command once, so a ratio is taken within
one round) starts from the same repository:

- `run --dry-run`, cold: no cache in .git/gitcurator at all;
- `run --dry-run` and `run`, warm: the caches everyday commands leave (`status`, and a
  previous pass over the same default branch, which keeps the reference graph);
- `run`, after `status` only (the reference graph not kept yet);
- `run` after a plain `git commit` that edited 10 skills, on the warm state: the everyday
  pass, the library having moved since the last one;
- git: `git mv` of the same M folders into .archive/ (one call per category folder, the
  fastest fair git) and one `git commit`, on a copy of the base state.

Every copy's index has its stat data refreshed by git, untimed, as the index of a library
someone works in is fresh: a copy has new inodes and ctimes, and without the refresh the
git side re-read all 20,000 files (0.5 s against 0.16-0.22 s at 10,000 skills), a baseline
up to three times too slow.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from figures import Figure, report, run_measured
from growth_library import edit_skills
from make_library import make_library

CREATED = "2026-01-01T00:00:00Z"
NOW = "2026-06-01T00:00:00Z"
SCRIPT = "bench_run"


def build(repo: Path, env: dict[str, str], skills: int, due: int) -> None:
    """The base state: N skills committed at CREATED, all but `due` used a week before NOW."""
    make_library(repo, skills)
    old = {**env, "GIT_AUTHOR_DATE": CREATED, "GIT_COMMITTER_DATE": CREATED}
    timed([*GITCURATOR, "init", str(repo), "--quiet"], repo.parent, old)
    names = sorted(p.parent.name for p in repo.glob("*/*/SKILL.md"))
    for i in range(0, len(names), 5000):  # 100,000 names are over the kernel's ARG_MAX
        track = [*GITCURATOR, "track", *names[i : i + 5000], "--origin", "agent"]
        timed([*track, "-C", str(repo)], repo.parent, env)
    script = (
        "import sys\nfrom gitcurator.telemetry.recording import record\n"
        "names = sys.stdin.read().split()\n"
        "for i in range(0, len(names), 500):\n"
        f"    record('use', names[i : i + 500], at='2026-05-25T00:00:00Z', repo={str(repo)!r})\n"
    )
    run_measured([sys.executable, "-c", script], repo.parent, env, stdin="\n".join(names[due:]))
    timed([*GITCURATOR, "flush", "-C", str(repo)], repo.parent, env)


def copy_of(state: Path, work: Path, name: str) -> Path:
    """A fresh copy of `state` at work/name (any earlier copy removed), its index refreshed."""
    target = work / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(state, target, symlinks=True)
    subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=target, capture_output=True)
    return target


def edited(state: Path, work: Path, name: str, env: dict[str, str]) -> Path:
    """A copy of `state` after a plain `git commit` that appended a line to 10 skills."""
    target = copy_of(state, work, name)
    folders = sorted(p.parent.relative_to(target).as_posix() for p in target.glob("*/*/SKILL.md"))
    edit_skills(target, folders[:10], "Edited by hand.")
    timed(["git", "commit", "-qam", "edit 10 skills"], target, env)
    return target


def drop_caches(repo: Path) -> None:
    """Every cache file in .git/gitcurator (the journal, segments and locks stay)."""
    from gitcurator import statefiles

    names = {v for k, v in vars(statefiles).items() if k.endswith(("_CACHE", "INDEX", "_LIVE"))}
    for name in names:
        if isinstance(name, str):
            (repo / ".git/gitcurator" / name).unlink(missing_ok=True)


def run(work: Path, base: Path, skills: int, due: int, times: int) -> None:
    env = bench_env(work / "home")
    (work / "home").mkdir(exist_ok=True)
    if not (base / ".git").is_dir():
        build(base, env, skills, due)
    dry = [*GITCURATOR, "run", "--now", NOW, "--dry-run", "--json", "-C"]
    real = [*GITCURATOR, "run", "--now", NOW, "--json", "-C"]

    cold_repo = copy_of(base, work, "cold")
    drop_caches(cold_repo)
    out = run_measured([*dry, str(cold_repo)], work, env).output
    planned = set(json.loads(out[out.index("{") :])["archived"])
    folders = sorted(p.parent.relative_to(base).as_posix() for p in base.glob("*/*/SKILL.md"))
    by_category: dict[str, list[str]] = {}
    for folder in folders:
        if folder.rsplit("/", 1)[1] in planned:
            by_category.setdefault(folder.rsplit("/", 1)[0], []).append(folder)

    # The state everyday commands leave: `status`, then a pass over the same default branch.
    after_status = copy_of(base, work, "after-status")
    timed([*GITCURATOR, "status", "-C", str(after_status)], work, env)
    warm_state = copy_of(after_status, work, "warm-state")
    timed([*real, str(warm_state)], work, env)

    def git_side() -> float:
        copy = copy_of(base, work, "git")
        spent = 0.0
        for category, group in sorted(by_category.items()):
            (copy / ".archive" / category).mkdir(parents=True, exist_ok=True)
            spent += run_measured(["git", "mv", *group, f".archive/{category}/"], copy, env).seconds
        commit = ["git", "commit", "-qm", f"archive {len(planned)} skills"]
        return spent + run_measured(commit, copy, env).seconds

    # Round by round, every command once: the machine's load (shared by other work) then
    # weighs on each side of a ratio alike, and each ratio is taken within one round.
    names = ("cold", "warm", "run", "first", "edited", "git")
    samples: dict[str, list[float]] = {name: [] for name in names}
    rss: dict[str, float] = dict.fromkeys(names, 0.0)
    out = ""
    for _ in range(times):
        drop_caches(cold_repo)
        # Each copy made just before its command (untimed), each in its own folder.
        targets: list[tuple[str, Callable[[], Path]]] = [
            ("cold", lambda: cold_repo),
            ("warm", lambda: warm_state),
            ("run", lambda: copy_of(warm_state, work, "run")),
            ("first", lambda: copy_of(after_status, work, "run-first")),
            ("edited", lambda: edited(warm_state, work, "run-edited", env)),
        ]
        for name, target in targets:
            cmd = [*(dry if name in ("cold", "warm") else real), str(target())]
            sample = run_measured(cmd, work, env)
            samples[name].append(sample.seconds)
            rss[name] = max(rss[name], sample.peak_rss_mb)
            out = sample.output if name == "run" else out
        samples["git"].append(git_side())
    result = json.loads(out[out.index("{") :])
    cold_fig, warm_fig, run_fig, first_fig, edited_fig, git_fig = (
        Figure(samples[n]) for n in names
    )

    def ratio(name: str) -> Figure:
        return Figure([a / b for a, b in zip(samples[name], samples["git"], strict=True)])

    print(
        f"library: {skills} skills, {len(result['archived'])} archived by the pass "
        f"(expected {due}), branch {result['branch']}; {times} runs each"
    )
    report(SCRIPT, skills, "run --dry-run, cold (no caches)", cold_fig)
    report(SCRIPT, skills, "run --dry-run, warm (after status and a pass)", warm_fig)
    report(SCRIPT, skills, "run, warm (after status and a pass)", run_fig)
    report(SCRIPT, skills, "run, after status only (no reference graph kept)", first_fig)
    report(SCRIPT, skills, "run after a git commit of 10 skills (warm otherwise)", edited_fig)
    report(SCRIPT, skills, f"git mv ({len(by_category)} calls) + git commit", git_fig)
    report(SCRIPT, skills, "ratio run warm / git (target <= 0.5)", ratio("run"), "x")
    report(SCRIPT, skills, "ratio run after status / git", ratio("first"), "x")
    report(SCRIPT, skills, "ratio run after a 10-skill commit / git", ratio("edited"), "x")
    report(SCRIPT, skills, "ratio dry-run cold / git (target <= 1.0)", ratio("cold"), "x")
    report(SCRIPT, skills, "ratio dry-run warm / git", ratio("warm"), "x")
    report(SCRIPT, skills, "peak RSS of run", max(rss["run"], rss["first"], rss["edited"]), "MB")
    report(SCRIPT, skills, "peak RSS of run --dry-run", max(rss["cold"], rss["warm"]), "MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--keep", type=Path, help="work in DIR (must not exist) and keep it")
    parser.add_argument(
        "--reuse", type=Path, help="work in DIR kept by an earlier --keep (its base library)"
    )
    args = parser.parse_args()
    if args.reuse is not None:
        work = args.reuse.resolve()
        if not (work / "base" / ".git").is_dir():
            parser.error(f"--reuse {work}: no base library there; build one with --keep")
        run(work, work / "base", args.skills, args.due, args.repeat)
        return
    with work_dir(parser, args.keep) as work:
        run(work, work / "base", args.skills, args.due, args.repeat)


if __name__ == "__main__":
    main()

"""Time `gitcurator list --json` over a library of N skills that all carry usage records.

Usage: python bench/bench_list.py [--skills N] [--keep DIR] [--reuse DIR] [--runs K]

Builds the library (bench/make_library.py), `gitcurator init`, records a use of every skill and
flushes; then times `gitcurator list --json` cold (every cache in .git/gitcurator deleted
before each run) and warm, beside the git CLI reading the same repository
(`git log --oneline | wc -l`, `git ls-tree -r HEAD | wc -l`), in one run, each figure the
median of K real processes (Python start-up included), with list's peak RSS.
`--reuse DIR` times a library an earlier `--keep DIR` built (no rebuild: ~30 s at 10,000).
Byte-compiled modules are used as an installed package has them (bench_env drops
PYTHONDONTWRITEBYTECODE for the child processes).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from figures import Figure, repeat, report, run_measured
from make_library import make_library

SCRIPT = "bench_list"
# State that is not a cache: what was recorded, who this clone is, locks, the schedule.
KEPT = {"host", "journal.jsonl", "segments", "schedule.json", "report.html"}


def build(work: Path, skills: int, env: dict[str, str]) -> Path:
    """A library of `skills` skills, initialised, each with one recorded (flushed) use."""
    repo = work / "lib"
    make_library(repo, skills)
    timed([*GITCURATOR, "init", str(repo), "--quiet"], work, env)
    names = sorted(p.parent.name for p in repo.glob("*/*/SKILL.md"))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from gitcurator.telemetry.recording import record

    for i in range(0, len(names), 500):
        record("use", names[i : i + 500], repo=repo)
    timed([*GITCURATOR, "flush", "-C", str(repo)], work, env)
    return repo


def drop_caches(repo: Path) -> None:
    """Delete every cache gitcurator keeps for `repo` (what a fresh clone starts without)."""
    state = repo / ".git" / "gitcurator"
    for path in state.iterdir() if state.is_dir() else ():
        if path.name in KEPT or path.suffix == ".lock":
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def run(work: Path, skills: int, runs: int, reuse: bool) -> None:
    env = bench_env(work / "home")
    if reuse:
        repo = work / "lib"
    else:
        (work / "home").mkdir()
        start = time.perf_counter()
        repo = build(work, skills, env)
        print(f"library built in {time.perf_counter() - start:.1f} s")
    skills = sum(1 for _ in repo.glob("*/*/SKILL.md"))
    cmd = [*GITCURATOR, "list", "--json", "-C", str(repo)]
    out = run_measured(cmd, work, env).output  # also writes the modules' bytecode
    rows = len(json.loads(out[out.index("[") : out.rindex("]") + 1]))
    print(f"library: {skills} skills, {rows} rows listed, every skill with a record")

    cold_rss: list[float] = []
    cold_s: list[float] = []
    for _ in range(runs):
        drop_caches(repo)
        sample = run_measured(cmd, work, env)
        cold_s.append(sample.seconds)
        cold_rss.append(sample.peak_rss_mb)
    warm_s: list[float] = []
    warm_rss: list[float] = []
    for _ in range(runs):
        sample = run_measured(cmd, work, env)
        warm_s.append(sample.seconds)
        warm_rss.append(sample.peak_rss_mb)
    shell = ["sh", "-c"]
    git_log = repeat([*shell, "git log --oneline | wc -l"], repo, env, runs)
    git_tree = repeat([*shell, "git ls-tree -r HEAD | wc -l"], repo, env, runs)

    cold, warm = Figure(cold_s), Figure(warm_s)
    report(SCRIPT, skills, "list --json cold (no caches)", cold)
    report(SCRIPT, skills, "list --json warm", warm)
    report(SCRIPT, skills, "git log --oneline | wc -l", git_log)
    report(SCRIPT, skills, "git ls-tree -r HEAD | wc -l", git_tree)
    report(SCRIPT, skills, "list --json cold / git ls-tree", cold.median / git_tree.median, "x")
    report(SCRIPT, skills, "list --json warm / git ls-tree", warm.median / git_tree.median, "x")
    report(SCRIPT, skills, "list --json cold peak RSS", Figure(cold_rss), "MB")
    report(SCRIPT, skills, "list --json warm peak RSS", Figure(warm_rss), "MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="work in DIR (must not exist) and keep it")
    parser.add_argument("--reuse", type=Path, help="time the library a --keep DIR run built")
    parser.add_argument("--runs", type=int, default=3, help="processes per figure (>= 3)")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs must be at least 3 (a median and a spread)")
    if args.reuse:
        if not (args.reuse / "lib" / ".git").is_dir():
            parser.error(f"{args.reuse}/lib is not a library a --keep run built")
        run(args.reuse, args.skills, args.runs, reuse=True)
        return
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.runs, reuse=False)


if __name__ == "__main__":
    main()

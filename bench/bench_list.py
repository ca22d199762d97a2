"""Time `gitcurator list --json` over a library of N skills that all carry usage records.

Usage: python bench/bench_list.py [--skills N] [--keep DIR]

Builds the library (bench/make_library.py), `gitcurator init`, records a use of every skill and
flushes, then times `gitcurator list --json` cold (no caches in .git/gitcurator) and warm,
beside `git log --oneline | wc -l` on the same repository, in one run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from make_library import make_library

from gitcurator.statefiles import HISTORY_CACHE, NAMES_CACHE, RECORDS_CACHE

CACHES = (RECORDS_CACHE, HISTORY_CACHE, NAMES_CACHE)


def run(work: Path, skills: int) -> None:
    (work / "home").mkdir()
    env = bench_env(work / "home")
    repo = work / "lib"
    make_library(repo, skills)
    timed([*GITCURATOR, "init", str(repo), "--quiet"], work, env)
    names = sorted(p.parent.name for p in repo.glob("*/*/SKILL.md"))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from gitcurator.telemetry.recording import record

    start = time.perf_counter()
    for i in range(0, len(names), 500):
        record("use", names[i : i + 500], repo=repo)
    recorded = time.perf_counter() - start
    flush_s, _ = timed([*GITCURATOR, "flush", "-C", str(repo)], work, env)
    state = repo / ".git" / "gitcurator"
    for cache in CACHES:
        (state / cache).unlink(missing_ok=True)
    cold, out = timed([*GITCURATOR, "list", "--json", "-C", str(repo)], work, env)
    rows = len(__import__("json").loads(out[: out.rindex("]") + 1]))
    warm, _ = timed([*GITCURATOR, "list", "--json", "-C", str(repo)], work, env)
    start = time.perf_counter()
    subprocess.run(
        "git log --oneline | wc -l", shell=True, cwd=repo, env=env, capture_output=True, check=True
    )
    git_log = time.perf_counter() - start
    print(f"library: {skills} skills, {rows} rows listed, every skill with a record")
    print(f"record one use of every skill (API, 500 names a call): {recorded:.2f} s")
    print(f"flush of {skills} events: {flush_s:.2f} s")
    print(f"list --json cold (no caches): {cold:.2f} s  = {cold / git_log:.1f}x git log|wc -l")
    print(f"list --json warm:             {warm:.2f} s  = {warm / git_log:.1f}x git log|wc -l")
    print(f"git log --oneline | wc -l:    {git_log:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="work in DIR (must not exist) and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills)


if __name__ == "__main__":
    main()

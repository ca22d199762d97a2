"""Time `gitcurator init` against `git init && git add -A && git commit` on the same files.

Usage: python bench/bench_init.py [--skills N] [--library DIR] [--keep DIR] [--runs R]

bench_validate_init's init figures alone, with the two sides taken in turns (an init, then
git's commit of the same files, R times) so a neighbour's load falls on both alike; each run
starts from a fresh copy of the library (bench/make_library.py, or `--library`), written to
disk (`sync`) before the clock starts. Reported: each side's median and spread, the ratio of
the medians and the median of the R paired ratios, and the same for the processor time each
side took (user + system, its child processes included: what a neighbour's load cannot
change); then `git fsck --strict` and `git status` after an init.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import bench_env, check_git_sees_no_change, fresh_copy, library_main
from figures import Figure, report, run_measured
from make_library import make_library

SCRIPT = "bench_init"
GITCURATOR = [sys.executable, "-m", "gitcurator"]


def run(work: Path, skills: int, library: Path | None, runs: int) -> None:
    env = bench_env(work / "home")
    (work / "home").mkdir()
    raw = library if library is not None else work / "raw"
    if library is None:
        make_library(raw, skills)
    mine, theirs = work / "gitcurator", work / "git"
    git_cmd = ["sh", "-c", f"cd '{theirs}' && git init -q && git add -A && git commit -qm x"]
    ours: tuple[list[float], list[float]] = ([], [])  # (wall, processor) seconds
    git: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for target, cmd, samples in (
            (mine, [*GITCURATOR, "init", str(mine), "--quiet"], ours),
            (theirs, git_cmd, git),
        ):
            fresh_copy(raw, target)
            subprocess.run(["sync"], check=True)
            before = _children_cpu()
            samples[0].append(run_measured(cmd, work, env).seconds)
            samples[1].append(_children_cpu() - before)
    for kind, at in (("", 0), (" (processor time)", 1)):
        report(SCRIPT, skills, "init" + kind, Figure(ours[at]))
        report(SCRIPT, skills, "git init && git add -A && git commit" + kind, Figure(git[at]))
        ratio = statistics.median(ours[at]) / statistics.median(git[at])
        report(SCRIPT, skills, "init vs git init+add+commit" + kind, ratio, "x")
        paired = Figure([a / b for a, b in zip(ours[at], git[at], strict=True)])
        report(SCRIPT, skills, "init vs git, run by run" + kind, paired, "x")
    check_git_sees_no_change(mine, env)


def _children_cpu() -> float:
    """User + system seconds of every child process this one has waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    library_main(__doc__, run, 5)


if __name__ == "__main__":
    main()

"""Time the usage hot path: `record` after a plain-git commit, the CLI and the API, flush.

Usage: python bench/bench_record.py [--skills N] [--keep DIR] [--library DIR]

On a generated library (bench/make_library.py) made a repository by `gitcurator init`, with
one usage record per skill in the notes (so a flush writes into N records):
(a) the first `gitcurator record use NAME` (a real process) after a plain `git commit` that
    edited 10 skills, the names cache then being brought to the new HEAD (target ≤ 0.3 s),
    beside that `git commit` and a cold rebuild (every cache deleted);
(b) `gitcurator record use NAME` against `python -c pass` (target ≤ 2.5×), interleaved;
(c) the Python API `recording.record('use', [name])` per call (target ≤ 0.5 ms);
(d) `gitcurator flush` of 2,000 events into one skill and spread over 2,000 skills (a real
    process each, target ≤ 0.3 s), against `git notes add` of one note into the same tree;
(e) 8 processes × 250 events into one skill at once, then a flush: every event counted.
Every figure goes through bench/figures.report. `--library DIR` keeps the built library
there and copies it for each run (building 10,000 skills takes ~1 minute).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import bench_env, work_dir
from figures import Figure, report, run_measured
from make_library import make_library

SCRIPT = "bench_record"
RUNS = 3
CLI_RUNS = 15
API_CALLS = 500
FLUSH_EVENTS = 2000
WORKERS, PER_WORKER = 8, 250

WORKER = """
import sys, time
from pathlib import Path
from gitcurator.telemetry import recording
repo, name, count, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
while not go.exists():
    time.sleep(0.001)
for _ in range(count):
    recording.record("use", [name], repo=repo)
"""

SEED = """
import sys
from gitcurator.telemetry import recording
names = sys.argv[2:]
for i in range(0, len(names), 100):
    recording.record("use", names[i : i + 100], repo=sys.argv[1], at="2026-11-01T00:00:00Z")
"""


def percentile(samples: list[float], fraction: float) -> float:
    """The sample below which `fraction` of them fall (bench_mcp and bench_search use it)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def gitcurator_cmd() -> list[str]:
    """The installed console script (what agents run), else `python -m gitcurator`."""
    script = Path(sys.executable).with_name("gitcurator")
    if script.exists() and not os.environ.get("PYTHONPATH"):
        return [str(script)]
    # A worktree on PYTHONPATH: the console script would still be the installed one's
    # entry point, with the same code path; `-m` takes the same fast path in entry.py.
    return [sys.executable, "-m", "gitcurator"]


def run_env(work: Path) -> dict[str, str]:
    """bench_env, with bytecode cached as an installed package has it (in `work`)."""
    env = bench_env(work / "home")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    return env


def build_library(library: Path, skills: int, env: dict[str, str]) -> list[str]:
    """Generate, `gitcurator init` and give every skill one record (one flush)."""
    repo = library / "repo"
    names = make_library(repo, skills)
    run_measured([*gitcurator_cmd(), "init", str(repo), "--quiet"], library, env)
    run_measured([sys.executable, "-c", SEED, str(repo), *names], library, env)
    run_measured([*gitcurator_cmd(), "flush"], repo, env)
    (library / "names.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    return names


def library_copy(work: Path, library: Path | None, skills: int) -> tuple[Path, list[str]]:
    """A fresh repository for this run: a copy of the kept library (built there if absent)."""
    env = run_env(work)
    (work / "home").mkdir(exist_ok=True)
    source = library if library is not None else work / "built"
    if not (source / "names.txt").exists():
        source.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        build_library(source, skills, env)
        print(f"built {skills} skills with records in {time.perf_counter() - start:.0f} s")
    names = (source / "names.txt").read_text(encoding="utf-8").split()
    if len(names) != skills:
        sys.exit(f"{source} holds {len(names)} skills, not {skills}: give another --library")
    repo = work / "repo"
    subprocess.run(["cp", "-a", str(source / "repo"), str(repo)], check=True)
    return repo, names


def commit_edits(repo: Path, folders: list[Path], env: dict[str, str], tag: str) -> float:
    """Edit each folder's SKILL.md and `git commit -a` them (plain git); the commit's time."""
    for folder in folders:
        skill_md = folder / "SKILL.md"
        skill_md.write_text(skill_md.read_text(encoding="utf-8") + f"\nStep {tag}.\n")
    return run_measured(["git", "commit", "-qam", f"edit {tag}"], repo, env).seconds


def bench_after_commit(repo: Path, names: list[str], skills: int, env: dict[str, str]) -> None:
    rng = random.Random(3)
    folders = sorted(repo.glob("*/*/SKILL.md"))
    record = [*gitcurator_cmd(), "record", "use", names[0]]
    run_measured(record, repo, env)  # the cache for the current HEAD
    firsts, commits = [], []
    for run in range(RUNS):
        commits.append(
            commit_edits(repo, [f.parent for f in rng.sample(folders, 10)], env, str(run))
        )
        firsts.append(run_measured(record, repo, env).seconds)
    report(SCRIPT, skills, "first record after a plain-git commit of 10 skills", Figure(firsts))
    report(SCRIPT, skills, "that git commit -qam (for scale)", Figure(commits))
    state = repo / ".git" / "gitcurator"
    colds = []
    for run in range(RUNS):
        commit_edits(repo, [f.parent for f in rng.sample(folders, 10)], env, f"cold{run}")
        for cache in state.glob("*.json"):
            cache.unlink()
        (state / "names.tsv").unlink(missing_ok=True)
        colds.append(run_measured(record, repo, env).seconds)
    report(SCRIPT, skills, "the same record with every cache deleted (cold)", Figure(colds))
    run_measured(record, repo, env)


def bench_cli(repo: Path, name: str, skills: int, env: dict[str, str]) -> None:
    commands = {
        "record": [*gitcurator_cmd(), "record", "use", name],
        "python": [sys.executable, "-c", "pass"],
    }
    samples: dict[str, list[float]] = {label: [] for label in commands}
    for _ in range(CLI_RUNS):  # interleaved: drift in the machine's load hits both alike
        for label, cmd in commands.items():
            samples[label].append(run_measured(cmd, repo, env).seconds)
    ours, python = Figure(samples["record"]), Figure(samples["python"])
    report(SCRIPT, skills, "gitcurator record use NAME (warm cache)", ours)
    report(SCRIPT, skills, "python -c pass", python)
    report(
        SCRIPT,
        skills,
        "record CLI / python -c pass (target <= 2.5)",
        ours.median / python.median,
        "x",
    )


def bench_api(repo: Path, name: str, skills: int) -> None:
    from gitcurator.telemetry import recording

    recording.record("use", [name], repo=repo)
    samples = []
    for _ in range(API_CALLS):
        start = time.perf_counter()
        recording.record("use", [name], repo=repo)
        samples.append(time.perf_counter() - start)
    ordered = sorted(samples)
    report(
        SCRIPT,
        skills,
        "API record per call, median (target <= 0.5 ms)",
        statistics.median(samples) * 1000,
        "ms",
    )
    report(
        SCRIPT, skills, "API record per call, p90", ordered[int(len(ordered) * 0.9)] * 1000, "ms"
    )


def bench_flush(repo: Path, names: list[str], skills: int, env: dict[str, str]) -> None:
    flush = [*gitcurator_cmd(), "flush"]
    run_measured(flush, repo, env)
    for label, spread in (("into 1 skill", 1), (f"over {FLUSH_EVENTS} skills", FLUSH_EVENTS)):
        times = []
        for run in range(RUNS):
            chosen = random.Random(run).sample(names, min(spread, len(names)))
            batch = [chosen[i % len(chosen)] for i in range(FLUSH_EVENTS)]
            run_measured([sys.executable, "-c", SEED, str(repo), *batch], repo, env)
            sample = run_measured(flush, repo, env)
            if f"folded {FLUSH_EVENTS} events" not in sample.output:
                sys.exit(f"flush did not fold {FLUSH_EVENTS} events: {sample.output}")
            times.append(sample.seconds)
        report(
            SCRIPT,
            skills,
            f"flush of {FLUSH_EVENTS} events {label} (target <= 0.3 s)",
            Figure(times),
        )
    # git writing one note into a copy of the same notes tree (it too rewrites only the
    # folders on the path to that note).
    run_measured(["git", "update-ref", "refs/notes/bench", "refs/notes/gitcurator"], repo, env)
    notes = [
        run_measured(
            ["git", "notes", "--ref", "bench", "add", "-f", "-m", f"x{i}", "HEAD"], repo, env
        ).seconds
        for i in range(RUNS)
    ]
    report(SCRIPT, skills, "git notes add of one note into that tree", Figure(notes))
    fsck = subprocess.run(
        ["git", "fsck", "--strict"], cwd=repo, env=env, capture_output=True, text=True
    )
    if fsck.returncode != 0:
        sys.exit(f"git fsck --strict failed after the flushes:\n{fsck.stdout}{fsck.stderr}")


def bench_concurrent(repo: Path, name: str, skills: int, env: dict[str, str], work: Path) -> bool:
    from gitcurator.library import open_repo
    from gitcurator.telemetry import ledger

    def uses() -> int:
        with open_repo(repo) as r:
            record = ledger.load(r.store).records.get(name)
        return record.use_count if record else 0

    run_measured([*gitcurator_cmd(), "flush"], repo, env)
    before = uses()
    go = work / "go"
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(repo), name, str(PER_WORKER), str(go)], env=env
        )
        for _ in range(WORKERS)
    ]
    time.sleep(1.0)  # let every worker import and wait at the start line
    start = time.perf_counter()
    go.touch()
    codes = [w.wait() for w in workers]
    elapsed = time.perf_counter() - start
    if any(codes):
        sys.exit(f"a recording worker failed: exit codes {codes}")
    flushed = run_measured([*gitcurator_cmd(), "flush"], repo, env)
    total, expected = uses() - before, WORKERS * PER_WORKER
    report(
        SCRIPT,
        skills,
        f"{WORKERS} processes x {PER_WORKER} events at once",
        expected / elapsed,
        "events/s",
    )
    report(SCRIPT, skills, "then their flush", flushed.seconds)
    print(f"    counted {total} of {expected}: {'exact' if total == expected else 'WRONG'}")
    return total == expected


def run(work: Path, skills: int, library: Path | None) -> bool:
    repo, names = library_copy(work, library, skills)
    env = run_env(work)
    os.environ.update({k: v for k, v in env.items() if k.startswith("GIT_") or k == "HOME"})
    bench_after_commit(repo, names, skills, env)
    bench_cli(repo, names[0], skills, env)
    bench_api(repo, names[0], skills)
    bench_flush(repo, names, skills, env)
    return bench_concurrent(repo, names[1], skills, env, work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    parser.add_argument(
        "--library", type=Path, metavar="DIR", help="keep the built library in DIR and reuse it"
    )
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        exact = run(work, args.skills, args.library.resolve() if args.library else None)
    if not exact:
        sys.exit("events were lost or counted twice")


if __name__ == "__main__":
    main()

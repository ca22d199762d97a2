"""Time the usage hot path: `record` through the Python API and the CLI, concurrency, flush.

Usage: python bench/bench_record.py [--skills N] [--keep DIR]

On a generated library (bench/make_library.py) made a repository by `gitcurator init`:
(a) the Python API `recording.record('use', [name])`, one call at a time (target ≤ 2 ms), and
    the first call after HEAD moved, which rebuilds the cache of skill names;
(b) the CLI `gitcurator record use NAME` as a real process, against `python -c pass` (target
    ≤ 6×) and against `git notes add` of one note;
(c) 8 processes × 250 events into the same skill at once, then a flush: every event counted,
    and the notes commits they cost;
(d) the time of that flush (a `gitcurator flush` process, start-up included).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import bench_env, timed, work_dir
from make_library import make_library

API_CALLS = 500
CLI_RUNS = 30
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


def gitcurator_cmd() -> list[str]:
    """The installed console script (what agents run), else `python -m gitcurator`."""
    script = Path(sys.executable).with_name("gitcurator")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gitcurator"]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def time_calls(call: Callable[[], object], count: int) -> list[float]:
    """Seconds each of `count` calls took."""
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples


def notes_commits(repo: Path, env: dict[str, str]) -> int:
    done = subprocess.run(
        ["git", "rev-list", "--count", "refs/notes/gitcurator"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    return int(done.stdout) if done.returncode == 0 else 0


def use_count(repo: Path, skill: str) -> int:
    from gitcurator.library import open_repo
    from gitcurator.telemetry import ledger

    with open_repo(repo) as r:
        record = ledger.load(r.store).records.get(skill)
    return record.use_count if record else 0


def bench_api(repo: Path, name: str, other: str, env: dict[str, str]) -> None:
    from gitcurator.telemetry import recording

    def call() -> None:
        recording.record("use", [name], repo=repo)

    (cold,) = time_calls(call, 1)
    print(f"(a) first call after HEAD moved (rebuilds the names cache): {cold * 1000:.0f} ms")
    samples = time_calls(call, API_CALLS)
    median, p90 = statistics.median(samples), percentile(samples, 0.9)
    verdict = "met" if median <= 0.002 else "MISSED"
    print(
        f"(a) Python API record, {API_CALLS} calls: median {median * 1000:.2f} ms, "
        f"p90 {p90 * 1000:.2f} ms (target ≤ 2 ms: {verdict})"
    )
    # What an agent pays after each commit of its learning loop: HEAD moved, one skill changed.
    skill_md = next(repo.rglob(f"{other}/SKILL.md"))
    skill_md.write_text(skill_md.read_text(encoding="utf-8") + "\nOne more step.\n")
    timed(["git", "commit", "-qam", f"edit {other}"], repo, env)
    (after_commit,) = time_calls(call, 1)
    print(f"(a) first call after a commit that edited one skill: {after_commit * 1000:.0f} ms")


def bench_cli(repo: Path, name: str, env: dict[str, str]) -> None:
    commands = {
        "gitcurator record use NAME": [*gitcurator_cmd(), "record", "use", name],
        "python -c pass": [sys.executable, "-c", "pass"],
        "git notes add -f -m x HEAD": ["git", "notes", "add", "-f", "-m", "x", "HEAD"],
    }
    samples: dict[str, list[float]] = {label: [] for label in commands}
    for _ in range(CLI_RUNS):  # interleaved, so drift in the machine's load hits all alike
        for label, cmd in commands.items():
            samples[label].append(timed(cmd, repo, env)[0])
    medians = {label: statistics.median(s) for label, s in samples.items()}
    ours = medians["gitcurator record use NAME"]
    print(f"(b) median wall time of {CLI_RUNS} runs each:")
    for label, median in medians.items():
        print(f"      {label:<30} {median * 1000:7.1f} ms   gitcurator is {ours / median:4.1f}x")
    verdict = "met" if ours / medians["python -c pass"] <= 6 else "MISSED"
    print(f"    vs python start-up: target ≤ 6x {verdict}")


def bench_concurrent(repo: Path, name: str, env: dict[str, str], work: Path) -> bool:
    flushed = subprocess.run(
        [*gitcurator_cmd(), "flush"], cwd=repo, env=env, capture_output=True, text=True
    )
    print(f"    (flushed the events of (a) and (b) first: {flushed.stdout.strip()})")
    before_count, before_commits = use_count(repo, name), notes_commits(repo, env)
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
    recording = time.perf_counter() - start
    if any(codes):
        sys.exit(f"a recording worker failed: exit codes {codes}")
    during = notes_commits(repo, env) - before_commits
    flush_seconds, out = timed([*gitcurator_cmd(), "flush"], repo, env)
    commits = notes_commits(repo, env) - before_commits
    total = use_count(repo, name) - before_count
    expected = WORKERS * PER_WORKER
    events = expected / recording
    print(
        f"(c) {WORKERS} processes × {PER_WORKER} events into {name} at once: recorded in "
        f"{recording:.2f} s ({events:.0f} events/s); {during} notes commits while recording"
    )
    print(
        f"    after one flush: total {total} (expected {expected}: "
        f"{'exact' if total == expected else 'WRONG'}); notes commits for them: {commits}"
    )
    print(f"(d) flush of those {expected} events: {flush_seconds:.2f} s ({out.strip()})")
    return total == expected


def run(work: Path, skills: int) -> bool:
    home = work / "home"
    home.mkdir()
    env = bench_env(home)
    os.environ.update(env)  # the in-process API part runs under the same isolated identity
    repo = work / "library"
    start = time.perf_counter()
    names = make_library(repo, skills)
    made = time.perf_counter() - start
    init_seconds, _ = timed([*gitcurator_cmd(), "init", str(repo), "--quiet"], work, env)
    print(
        f"library: {skills} skills, generated in {made:.1f} s, "
        f"`gitcurator init` {init_seconds:.1f} s"
    )
    bench_api(repo, names[0], names[2], env)
    bench_cli(repo, names[0], env)
    return bench_concurrent(repo, names[1], env, work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        exact = run(work, args.skills)
    if not exact:
        sys.exit("events were lost or counted twice")


if __name__ == "__main__":
    main()

"""Stop `gitcurator run` at random points (SIGINT or SIGKILL) on an N-skill library; after
each stop, look for lock files, `git fsck --strict` and whether the next pass succeeds.

Usage: python bench/bench_interrupts.py [--skills N] [--kills K] [--seed S] [--keep DIR]

The library (bench/make_library.py) is committed months ago and handed to the curator, half
of it used recently, so every pass archives the other half onto a new curator branch. One
timed pass sets the span; each kill then picks SIGINT or SIGKILL (half each, shuffled) and a
delay uniform over the span, counted from the moment the process runs gitcurator's code (a
signal while Python itself starts up is Python's business). After each kill: the exit code,
the `*.lock` files it left under .git, `git fsck --strict`, then one more whole `run` and
its exit code (0, or 1 with the fix; never 3); when it names a lock to remove, that is done
and the pass run once more, so every kill starts from a working library. All real processes.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from make_library import make_library
from support.interrupts import fsck, lock_files, start, stop_after

HERE = Path(__file__).resolve().parent

CREATED = "2026-01-01T00:00:00Z"
NOW = "2026-06-01T00:00:00Z"
RUN = ("run", "--now", NOW, "--json")


def build(work: Path, skills: int) -> tuple[Path, dict[str, str]]:
    """The library, initialised, tracked by the curator, half of it used recently."""
    (work / "home").mkdir()
    env = bench_env(work / "home")
    env["PYTHONPATH"] = str(HERE.parent)  # this checkout's gitcurator, whatever is installed
    repo = work / "lib"
    make_library(repo, skills)
    old = {**env, "GIT_AUTHOR_DATE": CREATED, "GIT_COMMITTER_DATE": CREATED}
    timed([*GITCURATOR, "init", str(repo), "--quiet"], work, old)
    names = sorted(p.parent.name for p in repo.glob("*/*/SKILL.md"))
    timed([*GITCURATOR, "track", *names, "--origin", "agent", "-C", str(repo)], work, env)
    used = names[: len(names) // 2]
    for i in range(0, len(used), 500):
        batch = used[i : i + 500]
        cmd = [*GITCURATOR, "record", "use", *batch, "--at", "2026-05-25T00:00:00Z"]
        timed([*cmd, "-C", str(repo)], work, env)
    timed([*GITCURATOR, "flush", "-C", str(repo)], work, env)
    return repo, env


def run(work: Path, skills: int, kills: int, seed: int) -> None:
    start_time = time.perf_counter()
    repo, env = build(work, skills)
    built = time.perf_counter() - start_time
    pass_time, _ = timed([*GITCURATOR, *RUN, "-C", str(repo)], work, env)
    span = pass_time * 1.2
    rng = random.Random(seed)
    signals = [signal.SIGINT] * (kills - kills // 2) + [signal.SIGKILL] * (kills // 2)
    rng.shuffle(signals)

    codes: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    finished: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    left: dict[str, list[str]] = collections.defaultdict(list)
    after_next: list[str] = []
    fsck_bad: list[str] = []
    next_codes: collections.Counter[int] = collections.Counter()
    next_errors: collections.Counter[str] = collections.Counter()
    fixed: collections.Counter[int] = collections.Counter()
    for i, signum in enumerate(signals):
        name = signal.Signals(signum).name
        before = set(lock_files(repo))
        stopped = stop_after(
            start(*RUN, "-C", str(repo), cwd=work, env=env), rng.uniform(0, span), signum
        )
        (codes if stopped.signalled else finished)[name][stopped.code] += 1
        left[name] += [f"{i}: {path}" for path in lock_files(repo) if path not in before]
        checked = fsck(repo)
        if checked.returncode != 0:
            fsck_bad.append(f"{i} ({name}): {(checked.stdout + checked.stderr).strip()[:200]}")
        code, err = _next_pass(repo, work, env)
        next_codes[code] += 1
        if code != 0:
            next_errors[err.strip().splitlines()[-1][:160] if err.strip() else "(no message)"] += 1
            fix = re.search(r"`rm ([^`]+)`", err)
            if code == 1 and fix:
                # What the message says to do, done as a person would: then the pass again.
                Path(fix.group(1)).unlink(missing_ok=True)
                fixed[_next_pass(repo, work, env)[0]] += 1
        after_next += [f"{i}: {path}" for path in lock_files(repo)]
        if (i + 1) % 20 == 0:
            print(f"  ... {i + 1} of {kills} kills done", file=sys.stderr, flush=True)

    print(f"library: {skills} skills (built in {built:.0f} s); one pass {pass_time:.2f} s; "
          f"{kills} kills spread over 0-{span:.2f} s of each pass (seed {seed})")  # fmt: skip
    for name in ("SIGINT", "SIGKILL"):
        shown = ", ".join(f"exit {_code(c)}: {n}" for c, n in sorted(codes[name].items()))
        early = ", ".join(f"exit {c}: {n}" for c, n in sorted(finished[name].items()))
        total = sum(codes[name].values()) + sum(finished[name].values())
        print(f"{name:7} ({total}): {shown or 'none stopped'}; "
              f"finished before the signal: {early or 'none'}")  # fmt: skip
    for name in ("SIGINT", "SIGKILL"):
        print(f"new lock files left by {name}: {len(left[name])}" + _listed(left[name]))
    print(
        f"git fsck --strict: clean after {kills - len(fsck_bad)} of {kills} kills"
        + _listed(fsck_bad)
    )
    shown = ", ".join(f"exit {code}: {n}" for code, n in sorted(next_codes.items()))
    print(
        f"next pass after each kill: {shown}"
        + _listed([f"{n}x {e}" for e, n in next_errors.items()])
    )
    if fixed:
        shown = ", ".join(f"exit {code}: {n}" for code, n in sorted(fixed.items()))
        print(f"after following the fix the message gave (`rm LOCK`), the pass again: {shown}")
    print(f"lock files left after the next pass: {len(after_next)}" + _listed(after_next))


def _next_pass(repo: Path, work: Path, env: dict[str, str]) -> tuple[int, str]:
    again = start(*RUN, "-C", str(repo), cwd=work, env=env)
    _out, err = again.communicate()
    return again.returncode, err


def _code(code: int) -> str:
    return f"{code} (killed by {signal.Signals(-code).name})" if code < 0 else str(code)


def _listed(items: list[str]) -> str:
    return "".join(f"\n    {item}" for item in items[:10]) + (
        f"\n    ... and {len(items) - 10} more" if len(items) > 10 else ""
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=3_000)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--keep", type=Path, help="work in DIR (must not exist) and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.kills, args.seed)


if __name__ == "__main__":
    main()

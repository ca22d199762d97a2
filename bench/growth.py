"""The growth curves: every hot command, and git doing the same work, at several library sizes.

Usage: python bench/growth.py [--sizes 1000,10000[,100000]] [--cache DIR] [--samples K]
                              [--seed S] [--label TEXT] [--only GROUPS] [--table-only]

For each size, one library (bench/growth_library.py: generated, `init`, `track`, recent uses
of nine tenths of the skills, flushed, packed, a bare remote) is built once and kept in the
cache, keyed by size and seed, so a rerun reuses it. Each measurement then works on a fresh
copy and times real processes (Python start-up included), K runs each (median and spread,
bench/figures.py), with the peak resident memory of each. Figures go to
bench/results/growth.jsonl (the lines of figures.report; a size measured again replaces its
lines); bench/growth_table.py turns them into bench/results/growth.md (the table, growth
exponents, where a curve bends, peak RSS) and bench/results/growth.png (log-log).
`sync` talks to a `git daemon` on a free port of 127.0.0.1 (git://).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's gitcurator
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sync import start_daemon
from figures import Figure, report, run_measured
from growth_library import (
    NOTES,
    NOW,
    ROOT,
    Library,
    bench_env,
    copy_repo,
    edit_skills,
    gitcurator_cmd,
    library,
    record_uses,
)

from gitcurator import statefiles

RESULTS = ROOT / "bench" / "results"
TIME, TIME_MARK = Path("/usr/bin/time"), "growth-time:"
CPU, RSS = " cpu", " peak RSS"  # the suffixes of a command's other figures (growth_table)
GC = gitcurator_cmd()
LATER = "2026-05-28T00:00:00Z"  # the uses recorded while measuring: after the build's
# Per-clone state, not caches: what a "cold" run keeps in .git/gitcurator.
KEPT = {
    getattr(statefiles, name, "")
    for name in (
        "JOURNAL",
        "SEGMENTS",
        "HOST_FILE",
        "SCHEDULE_FILE",
        "REPORT_HTML",
        "NOTES_LOCK",
        "PASS_LOCK",
        "SCHEDULE_LOCK",
    )
}


def drop_caches(repo: Path) -> None:
    """Delete every cache in .git/gitcurator (whatever its name), keeping per-clone state."""
    state = repo / ".git" / statefiles.STATE_DIR
    for entry in state.iterdir():
        if entry.name in KEPT:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def quiet(cmd: list[str]) -> list[str]:
    """`cmd` with its standard output sent to /dev/null by a shell that then execs it.

    Reading megabytes of output would raise this process's peak RSS, and a child's peak as
    os.wait4 reports it starts from its parent's (see growth_library.record_uses).
    """
    return ["sh", "-c", 'exec "$0" "$@" > /dev/null', *cmd]


@dataclass(frozen=True, slots=True)
class Run:
    """One measured process: wall seconds, CPU seconds (user + system) and peak RSS in MB."""

    seconds: float
    cpu: float
    rss_mb: float
    output: str


def measured(cmd: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """`cmd` as a real process (figures.run_measured), under GNU time when there is one.

    GNU time reports its child's CPU time, which the load of a shared machine barely
    changes, and its peak RSS from a floor of time's own few MB instead of this process's.
    """
    if not TIME.exists():
        sample = run_measured(cmd, cwd, env)
        return Run(sample.seconds, float("nan"), sample.peak_rss_mb, sample.output)
    sample = run_measured([str(TIME), "-f", f"{TIME_MARK} %U %S %M", *cmd], cwd, env)
    head, _, tail = sample.output.rpartition(TIME_MARK)
    user, system, kib = tail.split()[:3]
    return Run(sample.seconds, float(user) + float(system), int(kib) / 1024, head)


def json_in(output: str) -> dict[str, Any]:
    """The JSON document a command printed (after any warnings)."""
    doc, _ = json.JSONDecoder().raw_decode(output[output.index("{") :])
    return cast(dict[str, Any], doc)


def measure(
    times: int,
    cmd: list[str],
    cwd: Path,
    env: dict[str, str],
    before: Callable[[int], object] | None = None,
) -> list[Run]:
    """`cmd` run `times` times as a real process (`before(i)` first, untimed)."""
    runs = []
    for i in range(times):
        if before is not None:
            before(i)
        runs.append(measured(cmd, cwd, env))
    return runs


def keep(skills: int, name: str, runs: list[Run]) -> None:
    """Report the wall seconds, the CPU seconds and the peak RSS of a command's runs."""
    report("growth", skills, name, Figure([r.seconds for r in runs]))
    if not any(math.isnan(r.cpu) for r in runs):
        report("growth", skills, f"{name}{CPU}", Figure([r.cpu for r in runs]))
    report("growth", skills, f"{name}{RSS}", Figure([r.rss_mb for r in runs]), "MB")


@contextmanager
def git_daemon(base: Path, env: dict[str, str]) -> Iterator[str]:
    """A `git daemon` serving the repositories under `base` on a free loopback port: its URL."""
    proc, port = start_daemon(base, env)
    try:
        yield f"git://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait()


def bench_record(lib: Library, work: Path, env: dict[str, str], k: int) -> None:
    repo = copy_repo(lib, work / "record", env)
    name = lib.names[-1]
    cmd = [*GC, "record", "use", name]
    run_measured(cmd, repo, env)  # the names cache of this HEAD, as a hook finds it
    keep(lib.skills, "record use NAME", measure(max(k, 5), cmd, repo, env))

    def commit_ten(i: int) -> None:
        edit_skills(repo, lib.folders[-10:], f"Edit {i}.")
        run_measured(["git", "commit", "-qam", f"edit 10 skills ({i})"], repo, env)

    after = measure(k, cmd, repo, env, before=commit_ten)
    keep(lib.skills, "record use, first after a git commit of 10 skills", after)
    line = ["sh", "-c", "git ls-tree -r HEAD | wc -l"]
    keep(lib.skills, "git ls-tree -r HEAD | wc -l", measure(k, line, repo, env))
    shutil.rmtree(work / "record")


def bench_list(lib: Library, work: Path, env: dict[str, str], k: int) -> None:
    repo = copy_repo(lib, work / "list", env)
    # Its output (megabytes) goes to /dev/null, not through this process: see `quiet`.
    cmd = quiet([*GC, "list", "--json", "--now", NOW])
    cold = measure(k, cmd, repo, env, before=lambda _: drop_caches(repo))
    keep(lib.skills, "list --json cold", cold)
    run_measured(cmd, repo, env)
    keep(lib.skills, "list --json warm", measure(k, cmd, repo, env))
    shutil.rmtree(work / "list")


def bench_run(lib: Library, work: Path, env: dict[str, str], k: int) -> None:
    repo = copy_repo(lib, work / "dry", env)
    dry = [*GC, "run", "--now", NOW, "--dry-run", "--json"]
    keep(lib.skills, "run --dry-run cold", measure(k, dry, repo, env, lambda _: drop_caches(repo)))
    # A dry run writes no cache; everyday commands (here `status`) keep them warm.
    run_measured([*GC, "status"], repo, env)
    keep(lib.skills, "run --dry-run warm", measure(k, dry, repo, env))
    shutil.rmtree(work / "dry")

    runs, archived = [], 0
    for i in range(k):
        repo = copy_repo(lib, work / f"run{i}", env)
        run_measured([*GC, "status"], repo, env)
        sample = measured([*GC, "run", "--now", NOW, "--json"], repo, env)
        runs.append(sample)
        archived = len(json_in(sample.output)["archived"])
        shutil.rmtree(work / f"run{i}")
    if archived != len(lib.unused):
        print(f"  ! the pass archived {archived} skills, {len(lib.unused)} expected")
    keep(lib.skills, "run (a tenth of the skills archived)", runs)

    moves: list[Run] = []
    for i in range(k):
        repo = copy_repo(lib, work / f"mv{i}", env)
        script = work / f"mv{i}" / "moves.sh"
        script.write_text(_moves_script(lib.folders[: len(lib.unused)]), encoding="utf-8")
        moves.append(measured(["sh", str(script)], repo, env))
        shutil.rmtree(work / f"mv{i}")
    keep(lib.skills, "git mv + git commit (the same folders)", moves)


def _moves_script(folders: list[str]) -> str:
    """The fastest fair git: one `git mv` per category, moving all its due skills, one commit."""
    by_category: dict[str, list[str]] = {}
    for folder in folders:
        by_category.setdefault(folder.rsplit("/", 1)[0], []).append(folder)
    lines = ["set -e"]
    for category, group in sorted(by_category.items()):
        lines.append(f"mkdir -p .archive/{category}")
        lines.append(f"git mv {' '.join(group)} .archive/{category}/")
    lines.append(f"git commit -qm 'archive {len(folders)} skills'")
    return "\n".join(lines) + "\n"


def bench_flush(lib: Library, work: Path, env: dict[str, str], k: int) -> None:
    repo = copy_repo(lib, work / "flush", env)
    events = [lib.names[i % lib.skills] for i in range(2000)]
    flush = measure(k, [*GC, "flush"], repo, env, lambda _: record_uses(repo, events, LATER, env))
    keep(lib.skills, "flush of 2,000 events", flush)
    run_measured(["git", "update-ref", "refs/notes/bench", NOTES], repo, env)
    add = ["git", "notes", "--ref=bench", "add", "-f", "-m", "x", "HEAD"]
    keep(lib.skills, "git notes add (into the notes tree)", measure(k, add, repo, env))
    shutil.rmtree(work / "flush")


def bench_sync(lib: Library, work: Path, env: dict[str, str], k: int) -> None:
    changed = lib.names[-(lib.skills // 10) :]
    syncs, pushes, fetches = [], [], []
    with git_daemon(work, env) as url:
        for i in range(k):
            ours, theirs, fresh = (work / f"sync{i}-{side}" for side in ("gc", "git", "fetch"))
            for dest in (ours, theirs):
                repo = copy_repo(lib, dest, env, with_remote=True)
                record_uses(repo, changed, LATER, env)
                run_measured([*GC, "flush"], repo, env)
                remote = f"{url}/{dest.name}/remote/skills.git"
                run_measured(["git", "remote", "add", "origin", remote], repo, env)
            syncs.append(measured([*GC, "sync", "--json"], ours / "lib", env))
            push = ["git", "push", "-q", "origin", NOTES]
            pushes.append(measured(push, theirs / "lib", env))
            repo = copy_repo(lib, fresh, env)
            fetch = ["git", "fetch", "-q", f"{url}/{theirs.name}/remote/skills.git"]
            fetches.append(measured([*fetch, f"+{NOTES}:{NOTES}"], repo, env))
            for dest in (ours, theirs, fresh):
                shutil.rmtree(dest)
    keep(lib.skills, "sync (a tenth of the records changed, push)", syncs)
    keep(lib.skills, "git push of the notes ref (the same change)", pushes)
    keep(lib.skills, "git fetch of the notes ref (the same change)", fetches)


def bench_validate(lib: Library, work: Path, env: dict[str, str], k: int) -> None:
    repo = copy_repo(lib, work / "validate", env)
    cmd = [*GC, "validate", "--quiet"]
    run_measured(cmd, repo, env)
    keep(lib.skills, "validate warm", measure(k, cmd, repo, env))
    shutil.rmtree(work / "validate")


BENCHES = {
    "record": bench_record,
    "list": bench_list,
    "run": bench_run,
    "flush": bench_flush,
    "sync": bench_sync,
    "validate": bench_validate,
}


def measure_size(args: argparse.Namespace, skills: int, jsonl: Path) -> None:
    env = bench_env(args.cache / "home")
    (args.cache / "home").mkdir(parents=True, exist_ok=True)
    print(f"== {skills} skills", flush=True)
    start = time.perf_counter()
    lib = library(args.cache, skills, args.seed, env)
    print(f"  library ready ({time.perf_counter() - start:.0f} s here; built in "
          f"{lib.build_seconds:.0f} s)", flush=True)  # fmt: skip
    _drop_lines(jsonl, skills)
    os.environ["GITCURATOR_BENCH_JSON"] = str(jsonl)
    work = args.cache / f"work-{skills}-{os.getpid()}"  # runs in parallel: one each
    if work.exists():
        shutil.rmtree(work)
    work.mkdir()
    start, load = time.perf_counter(), os.getloadavg()[1]
    for group in args.only.split(","):
        BENCHES[group](lib, work, env, args.samples)
    shutil.rmtree(work)
    meta = {
        "commit": _head(),
        "label": args.label,
        "seed": args.seed,
        "samples": args.samples,
        "only": args.only,
        "build_seconds": round(lib.build_seconds, 1),
        "measure_seconds": round(time.perf_counter() - start, 1),
        # The machine's load (5-minute average) when the size began and ended: figures of
        # sizes measured under different loads compare only roughly.
        "load": [round(load, 1), round(os.getloadavg()[1], 1)],
        # Every child's peak RSS starts from this process's (see growth_library.record_uses).
        "harness_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    with jsonl.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"script": "growth", "skills": skills, "meta": meta}) + "\n")
    print(f"  measured in {meta['measure_seconds']:.0f} s", flush=True)


def _drop_lines(jsonl: Path, skills: int) -> None:
    """Forget the figures of an earlier run at this size: this run replaces them."""
    if not jsonl.exists():
        return
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if line.strip() and json.loads(line)["skills"] != skills]
    jsonl.write_text("".join(line + "\n" for line in kept), encoding="utf-8")


def _head() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "gitcurator"], cwd=ROOT)
    return done.stdout.strip() + (" (with uncommitted changes)" if dirty.returncode else "")


def write_table(results: Path) -> None:
    """growth.md and growth.png, drawn in a child: matplotlib would swell this process."""
    table = Path(__file__).resolve().with_name("growth_table.py")
    subprocess.run([sys.executable, str(table), str(results)], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="library sizes, comma-separated")
    parser.add_argument("--cache", type=Path, default=Path("/work/scratch/growth"))
    parser.add_argument("--samples", type=int, default=3, help="runs per command (default 3)")
    parser.add_argument("--seed", type=int, default=7, help="make_library's seed (default 7)")
    parser.add_argument("--label", default="", help="what the figures measured, for growth.md")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument(
        "--only",
        default=",".join(BENCHES),
        help=f"the groups to measure, comma-separated, in order (default {','.join(BENCHES)})",
    )
    parser.add_argument("--table-only", action="store_true", help="redraw from growth.jsonl")
    args = parser.parse_args()
    unknown = set(args.only.split(",")) - set(BENCHES)
    if unknown:
        parser.error(f"--only: no group {', '.join(sorted(unknown))}; try {','.join(BENCHES)}")
    args.cache = args.cache.resolve()
    args.results.mkdir(parents=True, exist_ok=True)
    jsonl = args.results / "growth.jsonl"
    if not args.table_only:
        for skills in sorted(int(s) for s in args.sizes.split(",")):
            measure_size(args, skills, jsonl)
            write_table(args.results)  # after each size: a long run shows its progress
    write_table(args.results)
    print((args.results / "growth.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()

"""Time `skill_histories` (per-skill created/patched facts from history) on a large library.

Usage: python bench/bench_history.py [--skills N] [--commits M] [--keep DIR]

A generated library (bench/make_library.py) is committed by `gitcurator init`, then M more
commits are added through `git fast-import` (fast to make): each edits a few skills, and every
20th is a curator-style archive move with a `Curator-Run:` trailer. `skill_histories` is timed
with no cache (cold), again with the cache and nothing new (warm), and after one more commit
(warm + 1). `git log --name-only` over the same history is shown for scale.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import bench_env, work_dir
from make_library import make_library

from gitcurator.skills.document import find_skills
from gitcurator.store import Store
from gitcurator.store import history as store_history

EDITS_PER_COMMIT = 3
ARCHIVE_EVERY = 20


def fast_import_stream(
    repo: Path, live: list[str], commits: int, start: int, rng: random.Random
) -> bytes:
    """A fast-import stream of `commits` commits on main, one second apart from `start`;
    `live` (skill folders not archived) loses the folders it archives."""
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    out: list[bytes] = []
    for n in range(commits):
        when = start + n
        if n % ARCHIVE_EVERY == ARCHIVE_EVERY - 1:
            folder = live.pop(rng.randrange(len(live)))
            message = f"Archive {folder.rsplit('/', 1)[-1]}\n\nCurator-Run: bench-{n}\n"
            ops = [f'R "{folder}" ".archive/{folder}"\n'.encode()]
        else:
            message = f"Edit {EDITS_PER_COMMIT} skills ({n})\n"
            ops = []
            for folder in rng.sample(live, EDITS_PER_COMMIT):
                text = (repo / folder / "SKILL.md").read_bytes() + f"\nEdit {n}.\n".encode()
                ops.append(f"M 100644 inline {folder}/SKILL.md\ndata {len(text)}\n".encode())
                ops.append(text + b"\n")
        data = message.encode()
        out.append(b"commit refs/heads/main\n")
        out.append(f"committer bench <bench@example.com> {when} +0000\n".encode())
        out.append(f"data {len(data)}\n".encode() + data + b"\n")
        if n == 0:
            out.append(f"from {head}\n".encode())
        out.extend(ops)
        out.append(b"\n")
    return b"".join(out)


def add_commits(repo: Path, env: dict[str, str], stream: bytes) -> None:
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, env=env, input=stream, check=True)


def timed_histories(repo: Path) -> tuple[float, dict[str, store_history.SkillHistory]]:
    """Seconds `skill_histories` took (skill discovery excluded) and its result."""
    with Store.discover(repo) as store:
        folders = {loc.folder: loc.dirname for loc in find_skills(store.head_paths())}
        start = time.perf_counter()
        found = store_history.skill_histories(store, folders)
        return time.perf_counter() - start, found


def run(work: Path, skills: int, commits: int) -> None:
    env = bench_env(work / "home")
    (work / "home").mkdir()
    repo = work / "library"
    names = make_library(repo, skills)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gitcurator", "init", str(repo), "--quiet"], env=env, check=True
    )
    print(f"library: {len(names)} skills, `gitcurator init` {time.perf_counter() - start:.1f} s")

    rng = random.Random(11)
    folders = sorted({loc.folder for loc in find_skills(_tracked_paths(repo))})
    clock = int(time.time())
    start = time.perf_counter()
    add_commits(repo, env, fast_import_stream(repo, folders, commits, clock, rng))
    print(f"history: {commits} more commits by fast-import in {time.perf_counter() - start:.1f} s")

    with Store.discover(repo) as store:
        cache = store_history.cache_path(store)
    cold, found = timed_histories(repo)
    warm, again = timed_histories(repo)
    assert again == found
    add_commits(repo, env, fast_import_stream(repo, folders, 1, clock + commits, rng))
    plus_one, _ = timed_histories(repo)
    start = time.perf_counter()
    subprocess.run(
        ["git", "log", "--name-only", "--format=%H %ct"],
        cwd=repo,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    git_log = time.perf_counter() - start

    patched = sum(1 for h in found.values() if h.patch_count)
    print(f"skill_histories: {len(found)} skills, {patched} with patches")
    print(f"  cold (no cache)        {cold:7.2f} s")
    print(f"  warm (nothing new)     {warm:7.2f} s")
    print(f"  warm + 1 new commit    {plus_one:7.2f} s")
    print(f"  git log --name-only    {git_log:7.2f} s   (for scale)")
    size = cache.stat().st_size
    count = len(json.loads(cache.read_text(encoding="utf-8"))["commits"])
    print(f"cache: {size / 1e6:.1f} MB, {count} commits")


def _tracked_paths(repo: Path) -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--commits", type=int, default=200, help="commits after init (200)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.commits)


if __name__ == "__main__":
    main()

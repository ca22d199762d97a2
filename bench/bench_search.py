"""Time `gitcurator search` on a 10,000-skill library, cold (no index cached) and warm.

Usage: python bench/bench_search.py [--skills N] [--archived N] [--queries N] [--keep DIR]

On a generated library (bench/make_library.py) made a repository by `gitcurator init`, with
some skills moved to .archive/ by plain git:
(a) in process: building the index from the tree (cold) and a warm search (the cache read
    and the query), median and p95 over several queries (target warm ≤ 300 ms);
(b) the command as an agent runs it, `gitcurator search QUERY --archived --json`, cold and
    warm (process start, opening the repository, the search, the output), with bytecode
    written as an installed package has it; then without --archived (the live skills' own
    index and cache).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_record import gitcurator_cmd, percentile
from bench_validate_init import bench_env, timed, work_dir
from make_library import make_library

from gitcurator.statefiles import SEARCH_INDEX, SEARCH_INDEX_LIVE

QUERIES = (
    "extract tables from pdf",
    "debug kubernetes pods",
    "docker build cache",
    "write release notes",
    "parse csv files",
    "terraform state drift",
    "sourdough starter",
    "postgres slow query",
)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _in_process(repo: Path, queries: int) -> None:
    from gitcurator.library import open_repo
    from gitcurator.search.index_cache import library_index
    from gitcurator.statefiles import SEARCH_INDEX

    with open_repo(repo) as library:
        (library.store.state_dir() / SEARCH_INDEX).unlink(missing_ok=True)
        start = time.perf_counter()
        found = library_index(library.store)
        found.index.search(QUERIES[0], 10, archived=True)
        cold = time.perf_counter() - start
        assert not found.cached
        samples = []
        for i in range(queries):
            start = time.perf_counter()
            warm = library_index(library.store)
            warm.index.search(QUERIES[i % len(QUERIES)], 10, archived=True)
            samples.append(time.perf_counter() - start)
            assert warm.cached
    print(f"(a) in process: cold (index built from the tree) {cold:.2f} s")
    print(
        f"(a) in process: warm (cache read + query) median {_ms(statistics.median(samples))}, "
        f"p95 {_ms(percentile(samples, 0.95))} over {queries} queries"
    )


def _command(repo: Path, env: dict[str, str], queries: int, archived: bool = True) -> None:
    # An installed gitcurator has its bytecode; with PYTHONDONTWRITEBYTECODE (set in some
    # sandboxes) every run would compile every module again, which is no cost of a search.
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([*gitcurator_cmd(), "--help"], env=env, capture_output=True, check=True)
    cache = repo / ".git" / "gitcurator" / (SEARCH_INDEX if archived else SEARCH_INDEX_LIVE)
    cache.unlink(missing_ok=True)
    which = ["--archived"] if archived else []
    cmd = [*gitcurator_cmd(), "-C", str(repo), "search", *which, "--json"]
    cold, _ = timed([*cmd, QUERIES[0]], repo, env)
    samples = [timed([*cmd, QUERIES[i % len(QUERIES)]], repo, env)[0] for i in range(queries)]
    start = time.perf_counter()
    subprocess.run([*gitcurator_cmd(), "--version"], env=env, capture_output=True, check=True)
    startup = time.perf_counter() - start
    label = "(b) command" + ("" if archived else " without --archived")
    print(f"{label}: cold {cold:.2f} s")
    print(
        f"{label}: warm median {_ms(statistics.median(samples))}, p95 "
        f"{_ms(percentile(samples, 0.95))} over {queries} runs "
        f"(`gitcurator --version` alone: {_ms(startup)})"
    )


def run(work: Path, skills: int, archived: int, queries: int) -> None:
    """Build the library and print the figures."""
    env = bench_env(work / "home")
    repo = work / "library"
    names = make_library(repo, skills)
    seconds, _ = timed([*gitcurator_cmd(), "init", str(repo), "--quiet"], work, env)
    archive = repo / ".archive"
    archive.mkdir()
    for folder in sorted(repo.glob("*/*/SKILL.md"))[:archived]:
        subprocess.run(
            ["git", "mv", str(folder.parent), str(archive / folder.parent.name)],
            cwd=repo,
            env=env,
            check=True,
        )
    subprocess.run(["git", "commit", "-qm", "archive some"], cwd=repo, env=env, check=True)
    print(f"library: {len(names)} skills ({archived} archived), `gitcurator init` {seconds:.1f} s")
    _in_process(repo, queries)
    _command(repo, env, queries)
    _command(repo, env, queries, archived=False)


def main() -> None:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--archived", type=int, default=500)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.archived, args.queries)


if __name__ == "__main__":
    main()

"""Time `gitcurator mcp` through the `mcp` SDK's own stdio client on a 10,000-skill library.

Usage: python bench/bench_mcp.py [--skills N] [--loads N] [--keep DIR]

On a generated library (bench/make_library.py) made a repository by `gitcurator init`:
(a) server start to first answer: spawning `gitcurator mcp` to the `initialize` result, then
    the first `load_skill` (which reads the library at HEAD) and the first `list_skills`;
(b) `load_skill` round trips once the server is warm, median and p95 (target median ≤ 5 ms),
    and `read_skill_file`;
(c) `list_skills` over every skill (warm), with a query (first, which builds the wording
    index, then warm), `resources/list` and one `skills/list` page;
(d) after a flush, every load counted exactly once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from bench_record import gitcurator_cmd, percentile
from bench_validate_init import bench_env, timed, work_dir
from make_library import make_library
from support.mcp_client import Client, connect


async def _timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = await call()
    return time.perf_counter() - start, result


async def _samples(call: Callable[[], Awaitable[Any]], count: int) -> list[float]:
    return [(await _timed(call))[0] for _ in range(count)]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


async def _bench(repo: Path, names: list[str], loads: int, log: Path) -> int:
    """Print the figures; return how many uses the session recorded."""
    rng = random.Random(11)
    start = time.perf_counter()
    async with connect(repo, log) as client:
        ready = time.perf_counter() - start
        middle = names[len(names) // 2]
        first_load, _ = await _timed(lambda: client.tool_text("load_skill", name=middle))
        first_list, (_, listing) = await _timed(lambda: client.tool_text("list_skills"))
        print(f"(a) spawn to initialize answered: {_ms(ready)}")
        print(f"    first load_skill (reads HEAD's {len(names)} skills): {_ms(first_load)}")
        print(f"    first list_skills ({len(json.loads(listing))} skills): {_ms(first_list)}")
        await _warm_figures(client, names, loads, rng)
    # Loads are uses; reads are views; lists, searches and skills/list record nothing.
    return 1 + loads


async def _warm_figures(client: Client, names: list[str], loads: int, rng: random.Random) -> None:
    async def load() -> None:
        error, _ = await client.tool_text("load_skill", name=rng.choice(names))
        assert not error

    samples = await _samples(load, loads)
    median, p95 = statistics.median(samples), percentile(samples, 0.95)
    verdict = "met" if median <= 0.005 else "MISSED"
    print(
        f"(b) load_skill round trip, {loads} loads of random skills: median {_ms(median)}, "
        f"p95 {_ms(p95)} (target median ≤ 5 ms: {verdict})"
    )

    async def read() -> None:
        error, _ = await client.tool_text(
            "read_skill_file", name=rng.choice(names), path="references/notes.md"
        )
        assert not error

    reads = await _samples(read, 50)
    print(f"    read_skill_file, 50 reads: median {_ms(statistics.median(reads))}")
    # Warm: the frontmatter of every skill is known from the first list_skills.
    lists = await _samples(lambda: client.tool_text("list_skills"), 5)
    print(f"(c) list_skills of every skill, warm: median {_ms(statistics.median(lists))}")
    query = "extract tables from pdf files"
    first, _ = await _timed(lambda: client.tool_text("list_skills", query=query))
    again = await _samples(lambda: client.tool_text("list_skills", query=query, limit=20), 10)
    print(
        f"    list_skills(query), first (builds the wording index): {_ms(first)}, "
        f"then median {_ms(statistics.median(again))}"
    )
    resources, listed = await _timed(client.session.list_resources)
    print(f"    resources/list ({len(listed.resources)} resources): {_ms(resources)}")
    page, doc = await _timed(lambda: client.request("skills/list"))
    print(f"    skills/list, first page ({len(doc['skills'])} entries with digests): {_ms(page)}")


def _uses(repo: Path, env: dict[str, str]) -> int:
    _, out = timed([*gitcurator_cmd(), "list", "--json", "-C", str(repo)], repo, env)
    start = out.index("[")
    return sum(row.get("use_count", 0) for row in json.loads(out[start:]))


def run(work: Path, skills: int, loads: int) -> bool:
    home = work / "home"
    home.mkdir()
    env = bench_env(home)
    os.environ.update(env)  # the server inherits the client's environment
    repo = work / "library"
    names = make_library(repo, skills)
    init_seconds, _ = timed([*gitcurator_cmd(), "init", str(repo), "--quiet"], work, env)
    print(f"library: {skills} skills, `gitcurator init` {init_seconds:.1f} s")
    expected = anyio.run(_bench, repo, names, loads, work / "server.log")
    timed([*gitcurator_cmd(), "flush", "-C", str(repo)], repo, env)
    counted = _uses(repo, env)
    verdict = "exact" if counted == expected else "WRONG"
    print(f"(d) uses after a flush: {counted} (expected {expected}: {verdict})")
    warnings = (work / "server.log").read_text()
    if warnings.strip():
        print(f"server stderr:\n{warnings}")
    return counted == expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--loads", type=int, default=1000, help="warm loads timed (default 1000)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        exact = run(work, args.skills, args.loads)
    if not exact:
        sys.exit("loads were lost or counted twice")


if __name__ == "__main__":
    main()

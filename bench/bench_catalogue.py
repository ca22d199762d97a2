"""Time what counting the skill catalogue adds to `status` and `run --dry-run` over N skills.

Usage: python bench/bench_catalogue.py [--skills N] [--keep DIR]

Builds the library (bench/make_library.py), runs `init`, then `status --json` with the
catalogue cache missing (every SKILL.md read and parsed) and again with it warm, and
`run --dry-run --json` (which writes no cache), as real processes. Prints the seconds and the
catalogue's figures (skills, tokens, tokenizer).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from make_library import make_library

CACHE = Path(".git/gitcurator/catalogue-entries.json")


def run(work: Path, skills: int) -> None:
    (work / "home").mkdir()
    env = bench_env(work / "home")
    library = work / "library"
    make_library(library, skills)
    timed([*GITCURATOR, "init", "--quiet", str(library)], work, env)
    rows: list[tuple[str, float]] = []
    (library / CACHE).unlink(missing_ok=True)
    seconds, out = timed([*GITCURATOR, "status", "--json"], library, env)
    rows.append(("status, catalogue cache cold", seconds))
    seconds, out = timed([*GITCURATOR, "status", "--json"], library, env)
    rows.append(("status, catalogue cache warm", seconds))
    catalogue = json.loads(out)["catalogue"]
    seconds, out = timed([*GITCURATOR, "run", "--dry-run", "--json"], library, env)
    rows.append(("run --dry-run (cache warm)", seconds))
    print(f"\n{skills} skills: catalogue {catalogue}\n")
    width = max(len(step) for step, _ in rows)
    for step, seconds in rows:
        print(f"{step:<{width}}  {seconds:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills)


if __name__ == "__main__":
    main()

"""Time the three-way text merge of `gitcurator update` on long files against `git merge-file`.

Usage: python bench/bench_upstream_merge.py [--lines N] [--seed S]

Each case is a base of N lines and two edited sides: a few edits apart, every line rewritten,
the file reversed, shuffled on both sides, lines from a three-letter alphabet, blank lines with
conflicts every few lines. Prints, per case, the merge's seconds, its conflict count, and git's
seconds and count (git stops counting at 127). Past the search budget (myers_search.WORK_LIMIT)
the merge gets coarser than git's, so the counts may differ there; the time stays bounded.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gitcurator.upstream.text_merge import merge_text

Sides = tuple[list[bytes], list[bytes], list[bytes]]


def cases(n: int, rng: random.Random) -> dict[str, Sides]:
    base = [b"line %d\n" % i for i in range(n)]

    def edited(tag: bytes) -> list[bytes]:
        lines = list(base)
        for _ in range(50):
            lines[rng.randrange(n)] = tag + b"%d\n" % rng.randrange(10**9)
        return lines

    shuffled = [list(base), list(base)]
    for side in shuffled:
        rng.shuffle(side)
    letters = [[b"%c\n" % rng.choice(b"abc") for _ in range(n)] for _ in range(3)]
    return {
        "50 edits apart": (base, edited(b"o"), edited(b"t")),
        "all rewritten": (base, [b"o" + x for x in base], [b"t" + x for x in base]),
        "reversed": (base, base[::-1], base[1:]),
        "shuffled both": (base, shuffled[0], shuffled[1]),
        "three letters": (letters[0], letters[1], letters[2]),
        "blank, conflicts": (
            [b"\n"] * n,
            [b"\n" if i % 2 else b"x\n" for i in range(n)],
            [b"\n" if i % 3 else b"y\n" for i in range(n)],
        ),
    }


def git_merge(folder: Path, sides: Sides) -> tuple[float, int]:
    paths = []
    for name, lines in zip(("base", "ours", "theirs"), sides, strict=True):
        (folder / name).write_bytes(b"".join(lines))
        paths.append(str(folder / name))
    start = time.perf_counter()
    done = subprocess.run(
        ["git", "merge-file", "-p", paths[1], paths[0], paths[2]], capture_output=True, check=False
    )
    return time.perf_counter() - start, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    print(f"{args.lines} lines a side")
    with tempfile.TemporaryDirectory() as scratch:
        for name, sides in cases(args.lines, random.Random(args.seed)).items():
            base, ours, theirs = (b"".join(s) for s in sides)
            start = time.perf_counter()
            merged = merge_text(base, ours, theirs)
            seconds = time.perf_counter() - start
            git_seconds, git_conflicts = git_merge(Path(scratch), sides)
            print(
                f"{name:18} merge {seconds:6.2f}s {merged.conflicts:6} conflicts   "
                f"git {git_seconds:5.2f}s {git_conflicts:4}"
            )


if __name__ == "__main__":
    main()

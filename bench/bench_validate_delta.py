"""Time `gitcurator validate` on an initialised library: unchanged, and after each kind of edit
a person makes between two runs, beside `git status` on the same repository.

Usage: python bench/bench_validate_delta.py [--skills N] [--reuse DIR | --library DIR]
       [--keep DIR] [--runs R]

`--reuse DIR` takes a library `gitcurator init` made (a copy of bench_validate_init's, say)
and works in it: every edit is undone at the end, only validate's caches stay rewritten.
`--library DIR` copies a folder make_library.py built and initialises the copy; without
either, a library of `--skills` skills is generated. Each figure is the median of `--runs`
real processes through bench/figures; `validate` runs plain in the repository (as an editor
or a script runs it: no click) and, for the unchanged case, with `-C` too (through click).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, drop_caches, fresh_copy, work_dir
from figures import repeat, report, run_measured
from make_library import make_library

SCRIPT = "bench_validate_delta"


class Edits:
    """One skill edited in the ways a person does; `undo` puts it back."""

    def __init__(self, repo: Path) -> None:
        self.skill = next(p for p in sorted(repo.glob("*/*/SKILL.md")))
        self.other = next(p for p in sorted(repo.glob("*/*/SKILL.md")) if p != self.skill)
        self.original = self.skill.read_bytes()
        self.count = 0

    def _text(self) -> str:
        self.count += 1
        return self.original.decode("utf-8") + f"\nEdit {self.count}.\n"

    def body(self) -> None:
        self.skill.write_text(self._text(), encoding="utf-8")

    def collide(self) -> None:
        """The skill's `name:` made another skill's (a duplicate-name error on both)."""
        theirs = self.other.parent.name
        lines = self._text().splitlines(keepends=True)
        named = [f"name: {theirs}\n" if ln.startswith("name:") else ln for ln in lines]
        self.skill.write_text("".join(named), encoding="utf-8")

    def by_rename(self) -> None:
        """An editor's safe save: a new file renamed over the old one."""
        tmp = self.skill.with_name(".SKILL.md.tmp")
        tmp.write_text(self._text(), encoding="utf-8")
        os.replace(tmp, self.skill)

    def undo(self) -> None:
        self.skill.write_bytes(self.original)


def run(repo: Path, skills: int, runs: int, env: dict[str, str]) -> None:
    plain = [*GITCURATOR, "validate"]
    cold = repeat(plain, repo, env, runs, lambda: drop_caches(repo))
    report(SCRIPT, skills, "validate cold (no caches)", cold)
    time.sleep(1.1)  # past git's racy second: the next run may keep its stat data
    run_measured(plain, repo, env)
    unchanged = repeat(plain, repo, env, runs)
    report(SCRIPT, skills, "validate unchanged (warm)", unchanged)
    via_click = repeat([*plain, "-C", str(repo)], repo.parent, env, runs)
    report(SCRIPT, skills, "validate -C DIR unchanged (warm, through click)", via_click)
    status = repeat(["git", "status", "-s"], repo, env, runs)
    report(SCRIPT, skills, "git status (baseline)", status)
    report(
        SCRIPT,
        skills,
        "validate unchanged vs git status",
        unchanged.median / status.median,
        unit="x",
    )
    edits = Edits(repo)
    try:
        edited = repeat(plain, repo, env, runs, edits.body)
        report(SCRIPT, skills, "validate after editing one skill", edited)
        report(
            SCRIPT,
            skills,
            "validate one edit vs git status",
            edited.median / status.median,
            unit="x",
        )
        # Exit 1 (the duplicate name is an error) is this run's answer, not a failure.
        failing = ["sh", "-c", '"$@"; [ $? -le 1 ]', "sh", *plain]
        collided = repeat(failing, repo, env, runs, edits.collide)
        report(SCRIPT, skills, "validate after a name made another skill's", collided)
        renamed = repeat(plain, repo, env, runs, edits.by_rename)
        report(SCRIPT, skills, "validate after a save by rename", renamed)
    finally:
        edits.undo()
    print(f"validate said: {run_measured(plain, repo, env).output.strip().splitlines()[-1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--reuse", type=Path, metavar="DIR", help="an initialised library")
    parser.add_argument("--library", type=Path, metavar="DIR", help="make_library.py's output")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (default 3)")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs: at least 3, for a median and a spread")
    if args.reuse and args.library:
        parser.error("--reuse and --library: give one")
    with work_dir(parser, args.keep) as work:
        env = bench_env(work / "home")
        (work / "home").mkdir()
        if args.reuse:
            run(args.reuse.resolve(), args.skills, args.runs, env)
            return
        raw = args.library.resolve() if args.library else work / "raw"
        if not args.library:
            make_library(raw, args.skills)
        repo = work / "repo"
        fresh_copy(raw, repo)
        subprocess.run([*GITCURATOR, "init", str(repo), "--quiet"], env=env, check=True)
        run(repo, args.skills, args.runs, env)


if __name__ == "__main__":
    main()

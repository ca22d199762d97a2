"""Time `gitcurator init` and `gitcurator validate` against plain git on a generated library.

Usage: python bench/bench_validate_init.py [--skills N] [--keep DIR]

Two copies of the same generated library (bench/make_library.py): gitcurator initialises one,
`git init -q && git add -A && git commit -qm x` the other. Then `gitcurator validate` checks the
whole first repository, compared with the `git add -A && git commit` part of the git run (the
cost of the commit a validating hook would guard). Each figure is one run of a real process,
Python start-up included, as a user or a hook pays it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_library import make_library

GITCURATOR = [sys.executable, "-m", "gitcurator"]


def bench_env(home: Path) -> dict[str, str]:
    """A fixed identity and no user or system git config, so both sides do the same work."""
    env = dict(os.environ)
    for var in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"):
        env.pop(var, None)
    env.update(
        HOME=str(home),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.com",
    )
    return env


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    """Seconds the command took; its output. Exits the script if the command fails."""
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-15:])
        sys.exit(f"`{' '.join(cmd)}` failed with exit {done.returncode}:\n{tail}")
    return elapsed, done.stdout + done.stderr


def run(work: Path, skills: int) -> None:
    env = bench_env(work / "home")
    (work / "home").mkdir()
    mine, theirs = work / "gitcurator", work / "git"

    start = time.perf_counter()
    make_library(mine, skills)
    shutil.copytree(mine, theirs, symlinks=True)
    files = sum(1 for p in mine.rglob("*") if p.is_file())
    print(f"library: {skills} skills, {files} files in each copy "
          f"(generated and copied in {time.perf_counter() - start:.1f} s)")  # fmt: skip

    gc_init, _ = timed([*GITCURATOR, "init", str(mine), "--quiet"], work, env)
    git_init, _ = timed(["git", "init", "-q"], theirs, env)
    git_add, _ = timed(["git", "add", "-A"], theirs, env)
    git_commit, _ = timed(["git", "commit", "-qm", "x"], theirs, env)
    git_add_commit = git_add + git_commit
    git_total = git_init + git_add_commit
    gc_validate, out = timed([*GITCURATOR, "validate", "-C", str(mine)], work, env)

    rows = [
        ("gitcurator init (validate + commit)", gc_init, git_total, "git init+add+commit"),
        ("gitcurator validate (whole repo)", gc_validate, git_add_commit, "git add+commit"),
    ]
    print(f"git: init {git_init:.2f} s, add -A {git_add:.2f} s, commit {git_commit:.2f} s")
    print(f"{'command':<38} {'seconds':>8}   {'vs':<20} {'seconds':>8} {'ratio':>7}")
    for label, ours, base, base_label in rows:
        print(f"{label:<38} {ours:>8.2f}   {base_label:<20} {base:>8.2f} {ours / base:>6.1f}x")
    print(f"validate said: {out.strip().splitlines()[-1]}")


@contextlib.contextmanager
def work_dir(parser: argparse.ArgumentParser, keep: Path | None) -> Iterator[Path]:
    """The folder a benchmark works in: `--keep DIR` (new, kept afterwards) or a temporary one."""
    if keep is None:
        with tempfile.TemporaryDirectory(prefix="gitcurator-bench-") as tmp:
            yield Path(tmp)
        return
    if keep.exists():
        parser.error(f"--keep {keep}: already exists; give a new folder")
    keep.mkdir(parents=True)
    yield keep.resolve()
    print(f"kept {keep}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills)


if __name__ == "__main__":
    main()

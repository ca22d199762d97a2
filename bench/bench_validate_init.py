"""Time `gitcurator init` and `gitcurator validate` against plain git on a generated library.

Usage: python bench/bench_validate_init.py [--skills N] [--keep DIR] [--library DIR] [--runs R]

Each `init` starts from a fresh copy of the same generated library (bench/make_library.py,
or the folder `--library` names, copied rather than regenerated), as does each
`git init -q && git add -A && git commit -qm x` it is compared with. Then `validate` on the
initialised library: cold (its caches deleted), with nothing changed since the last run,
after editing one skill, and `--staged` after editing and staging one (what the pre-commit
hook runs), beside `git status` and `git add` + `git commit` of the same edit. Every figure
is the median of `--runs` real processes (Python start-up included), through bench/figures.
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
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import Figure, repeat, report, run_measured
from make_library import make_library

SCRIPT = "bench_validate_init"
GITCURATOR = [sys.executable, "-m", "gitcurator"]
CACHES = (
    "validate-cache.json",
    "validate-results.json",
    "validate-quick.json",
    "validate-base.json",
)


def bench_env(home: Path) -> dict[str, str]:
    """A fixed identity and no user or system git config, so both sides do the same work."""
    env = dict(os.environ)
    # PYTHONDONTWRITEBYTECODE too: an installed gitcurator has its bytecode, and a process
    # compiling every module it imports would be timed as slower than any user sees it.
    for var in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "PYTHONDONTWRITEBYTECODE"):
        env.pop(var, None)
    env.update(
        HOME=str(home),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.com",
        # No detached `git gc --auto` after the baseline's commit of 20,000 loose objects: it
        # would run on during the next figures (and into the copy being replaced).
        GIT_CONFIG_COUNT="1",
        GIT_CONFIG_KEY_0="gc.auto",
        GIT_CONFIG_VALUE_0="0",
    )
    return env


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    """Seconds the command took; its output. Exits the script if the command fails (the
    other bench scripts' one-shot timer; bench/figures.py repeats and reports)."""
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-15:])
        sys.exit(f"`{' '.join(cmd)}` failed with exit {done.returncode}:\n{tail}")
    return elapsed, done.stdout + done.stderr


def fresh_copy(source: Path, target: Path) -> None:
    """`target` as a copy of `source` (the generated library, before any git)."""
    if target.exists():
        shutil.rmtree(target)
    # cp -a: several times faster than shutil.copytree on 20,000 files, and outside any timing.
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)


class Editor:
    """Edits one skill a little differently each time, as a person's save does."""

    def __init__(self, repo: Path, env: dict[str, str]) -> None:
        self.skill = next(p for p in sorted(repo.glob("*/*/SKILL.md")))
        self.original = self.skill.read_text(encoding="utf-8")
        self.repo, self.env, self.count = repo, env, 0

    def edit(self) -> None:
        self.count += 1
        self.skill.write_text(self.original + f"\nEdit {self.count}.\n", encoding="utf-8")

    def edit_and_stage(self) -> None:
        self.edit()
        subprocess.run(["git", "add", str(self.skill)], cwd=self.repo, env=self.env, check=True)

    def restore(self) -> None:
        self.skill.write_text(self.original, encoding="utf-8")
        subprocess.run(["git", "add", "-A"], cwd=self.repo, env=self.env, check=True)


def drop_caches(repo: Path) -> None:
    for name in CACHES:
        (repo / ".git" / "gitcurator" / name).unlink(missing_ok=True)


def run(work: Path, skills: int, library: Path | None, runs: int) -> None:
    env = bench_env(work / "home")
    (work / "home").mkdir()
    raw = library if library is not None else work / "raw"
    if library is None:
        make_library(raw, skills)
    mine, theirs = work / "gitcurator", work / "git"

    init = repeat(
        [*GITCURATOR, "init", str(mine), "--quiet"], work, env, runs, lambda: fresh_copy(raw, mine)
    )
    git_cmd = f"cd '{theirs}' && git init -q && git add -A && git commit -qm x"
    git = repeat(["sh", "-c", git_cmd], work, env, runs, lambda: fresh_copy(raw, theirs))
    report(SCRIPT, skills, "init", init)
    report(SCRIPT, skills, "git init && git add -A && git commit", git)
    report(SCRIPT, skills, "init vs git init+add+commit", init.median / git.median, "x")
    fresh_copy(raw, mine)
    rss = run_measured([*GITCURATOR, "init", str(mine), "--quiet"], work, env).peak_rss_mb
    report(SCRIPT, skills, "init peak RSS", rss, "MB")
    check_git_sees_no_change(mine, env)

    validate = [*GITCURATOR, "validate", "-C", str(mine)]
    cold = repeat(validate, work, env, runs, lambda: drop_caches(mine))
    report(SCRIPT, skills, "validate cold (no caches)", cold)
    rss = run_measured(validate, work, env).peak_rss_mb
    report(SCRIPT, skills, "validate peak RSS", rss, "MB")
    report(SCRIPT, skills, "validate unchanged (warm)", repeat(validate, work, env, runs))
    editor = Editor(mine, env)
    edited = repeat(validate, work, env, runs, editor.edit)
    report(SCRIPT, skills, "validate after editing one skill", edited)
    staged = repeat([*validate, "--staged"], work, env, runs, editor.edit_and_stage)
    report(SCRIPT, skills, "validate --staged after editing one skill", staged)
    editor.restore()
    report(
        SCRIPT, skills, "git status (baseline)", repeat(["git", "status", "-s"], mine, env, runs)
    )
    commit = Figure([git_add_commit(mine, env, editor) for _ in range(runs)])
    report(SCRIPT, skills, "git add -A + git commit of one edit (baseline)", commit)
    print(f"validate said: {run_measured(validate, work, env).output.strip().splitlines()[-1]}")


def git_add_commit(repo: Path, env: dict[str, str], editor: Editor) -> float:
    """The commit a validating hook guards: `git add -A` and `git commit` of one edit."""
    editor.edit()
    add = run_measured(["git", "add", "-A"], repo, env).seconds
    return add + run_measured(["git", "commit", "-qm", "edit", "--no-verify"], repo, env).seconds


def check_git_sees_no_change(repo: Path, env: dict[str, str]) -> None:
    """After init, `git fsck --strict` is clean and `git status` shows nothing."""
    fsck = subprocess.run(["git", "fsck", "--strict"], cwd=repo, env=env, capture_output=True)
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=repo, env=env, capture_output=True, text=True
    )
    if fsck.returncode != 0 or fsck.stdout or fsck.stderr.strip():
        sys.exit(f"git fsck --strict after init: {fsck.stdout!r} {fsck.stderr!r}")
    if status.stdout.strip():
        sys.exit(f"git status after init is not clean:\n{status.stdout[:2000]}")
    print("after init: git fsck --strict clean, git status clean")


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


def library_main(doc: str, run: Callable[[Path, int, Path | None, int], None], runs: int) -> None:
    """A bench's command line: --skills, --keep, --library and --runs (default `runs`, at
    least 3), then `run(work, skills, library, runs)` in the work folder."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    parser.add_argument(
        "--library",
        type=Path,
        metavar="DIR",
        help="a library make_library.py built (of --skills skills), copied instead of generated",
    )
    parser.add_argument("--runs", type=int, default=runs, help=f"runs per figure (default {runs})")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs: at least 3, for a median and a spread")
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.library.resolve() if args.library else None, args.runs)


def main() -> None:
    library_main(__doc__, run, 3)


if __name__ == "__main__":
    main()

"""Time a curator pass over N skills with M due for archive, against the same moves by git.

Usage: python bench/bench_run.py [--skills N] [--due M] [--keep DIR]

Builds the library (bench/make_library.py) committed months ago, marks every skill agent-made,
records a recent use of all but M of them, then copies the repository. On one copy:
`gitcurator run --dry-run` and `gitcurator run`; on the other: `git mv` of the same M folders
into .archive/ and one `git commit`. All in one run, as real processes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from make_library import make_library

CREATED = "2026-01-01T00:00:00Z"
NOW = "2026-06-01T00:00:00Z"


def run(work: Path, skills: int, due: int) -> None:
    (work / "home").mkdir()
    env = bench_env(work / "home")
    repo = work / "lib"
    make_library(repo, skills)
    old = {**env, "GIT_AUTHOR_DATE": CREATED, "GIT_COMMITTER_DATE": CREATED}
    timed([*GITCURATOR, "init", str(repo), "--quiet"], work, old)
    folders = sorted(p.parent.relative_to(repo).as_posix() for p in repo.glob("*/*/SKILL.md"))
    names = [f.rsplit("/", 1)[1] for f in folders]
    timed([*GITCURATOR, "track", *names, "--origin", "agent", "-C", str(repo)], work, env)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from gitcurator.telemetry.recording import record

    os.environ.update({k: env[k] for k in ("HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")})
    kept = names[due:]
    for i in range(0, len(kept), 500):
        record("use", kept[i : i + 500], at="2026-05-25T00:00:00Z", repo=repo)
    timed([*GITCURATOR, "flush", "-C", str(repo)], work, env)
    copy = work / "git-copy"
    shutil.copytree(repo, copy, symlinks=True)

    dry_run = [*GITCURATOR, "run", "--now", NOW, "--dry-run", "--json", "-C", str(repo)]
    cold, _ = timed(dry_run, work, env)
    # Caches in .git/gitcurator (history, records, tree listing) are kept warm by everyday
    # commands; a dry run writes none, so `status` stands in for them here.
    timed([*GITCURATOR, "status", "-C", str(repo)], work, env)
    dry, out = timed(dry_run, work, env)
    planned = json.loads(out[out.index("{") :])["archived"]
    mine, out = timed([*GITCURATOR, "run", "--now", NOW, "--json", "-C", str(repo)], work, env)
    result = json.loads(out[out.index("{") :])

    moves = [f for f in folders if f.rsplit("/", 1)[1] in set(planned)]
    by_category: dict[str, list[str]] = {}
    for folder in moves:
        by_category.setdefault(folder.rsplit("/", 1)[0], []).append(folder)
    # The fastest fair git: one `git mv` per category folder, moving all its due skills.
    start = time.perf_counter()
    for category, group in sorted(by_category.items()):
        (copy / ".archive" / category).mkdir(parents=True, exist_ok=True)
        timed(["git", "mv", *group, f".archive/{category}/"], copy, env)
    timed(["git", "commit", "-qm", f"archive {len(moves)} skills"], copy, env)
    theirs = time.perf_counter() - start

    print(
        f"library: {skills} skills, {len(result['archived'])} archived by the pass "
        f"(expected {due}), branch {result['branch']}"
    )
    print(f"gitcurator run --dry-run, cold:    {cold:6.2f} s  (no caches in .git/gitcurator)")
    print(f"gitcurator run --dry-run:          {dry:6.2f} s")
    print(f"gitcurator run:                    {mine:6.2f} s")
    print(f"git mv ({len(by_category)} calls) + git commit: {theirs:6.2f} s")
    print(f"ratio run / git:                   {mine / theirs:6.2f}x  (target <= 1.0x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--keep", type=Path, help="work in DIR (must not exist) and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.due)


if __name__ == "__main__":
    main()

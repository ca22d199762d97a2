"""The libraries bench/growth.py measures: built once per size and seed, kept, copied per measure.

A library of N skills (bench/make_library.py) is made a repository by `gitcurator init` with
commits dated months before the pass's `now`, every skill tracked as agent-made, a recent use
recorded (Python API, in batches) for all but a tenth of them, flushed into the notes, and
packed (`git repack -ad`: a library that has lived has a pack, and git's `gc --auto` would
otherwise repack tens of thousands of loose objects in the middle of a git baseline). A bare
clone beside it, holding the notes, is the remote `sync` talks to; one first `sync` has run.

Kept under CACHE/lib-<N>-seed<S>/ with build.json written last: a folder without it is a
build that did not finish, and is made again. A copy for one measurement hard-links the work
tree (never written in place: git and gitcurator replace files by rename, and `edit_skills`
unlinks before it writes) and copies .git whole, so nothing a command does reaches the cache.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's gitcurator
sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_validate_init
from figures import run_measured
from make_library import make_library

ROOT = Path(__file__).resolve().parents[1]
CREATED = "2026-01-01T00:00:00Z"  # the library's commits
USED = "2026-05-25T00:00:00Z"  # the recent use of the skills that stay
NOW = "2026-06-01T00:00:00Z"  # the pass's `now`: the unused tenth is long idle by then
NOTES = "refs/notes/gitcurator"
TRACK_BATCH = 25_000


def gitcurator_cmd() -> list[str]:
    """The installed console script (what agents and hooks run), else `python -m gitcurator`."""
    script = Path(sys.executable).with_name("gitcurator")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gitcurator"]


def bench_env(home: Path) -> dict[str, str]:
    """bench_validate_init's fixed identity, plus no auto gc and this checkout's gitcurator."""
    env = bench_validate_init.bench_env(home)
    env.pop("GITCURATOR_BENCH_JSON", None)  # the children's figures are not growth's
    env.update(
        GIT_CONFIG_COUNT="1",
        GIT_CONFIG_KEY_0="gc.auto",
        GIT_CONFIG_VALUE_0="0",
        PYTHONPATH=str(ROOT),  # the code of the checkout this script is in, not the venv's
    )
    return env


@dataclass(frozen=True, slots=True)
class Library:
    """A built library: its repository, its bare remote, its skills and the build's seconds."""

    folder: Path
    skills: int
    names: list[str]
    folders: list[str]  # category/name, in the order of `names`
    unused: list[str]  # the tenth with no recent use: what a pass archives
    build_seconds: float

    @property
    def repo(self) -> Path:
        return self.folder / "lib"

    @property
    def remote(self) -> Path:
        return self.folder / "remote" / "skills.git"


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    """Run a setup step (untimed); its output. Exits the script if it fails."""
    return run_measured(cmd, cwd, env).output


RECORD = """
import sys
from gitcurator.telemetry.recording import record
repo, at = sys.argv[1], sys.argv[2]
names = sys.stdin.read().split()
for i in range(0, len(names), 500):
    record("use", names[i : i + 500], at=at, repo=repo)
"""


def record_uses(repo: Path, names: list[str], at: str, env: dict[str, str]) -> None:
    """One use of each name through the Python API, 500 names a call.

    In a child process: the harness stays small, since a child's peak RSS as os.wait4 reads
    it starts from its parent's (the kernel keeps the old image's high-water mark at exec).
    """
    run_measured([sys.executable, "-c", RECORD, str(repo), at], repo, env, stdin="\n".join(names))


def library(cache: Path, skills: int, seed: int, env: dict[str, str]) -> Library:
    """The library of `skills` skills made with `seed`: from the cache, else built and kept."""
    folder = cache / f"lib-{skills}-seed{seed}"
    done = folder / "build.json"
    if not done.exists():
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        start = time.perf_counter()
        _build(folder, skills, seed, env)
        meta = {"skills": skills, "seed": seed, "build_seconds": time.perf_counter() - start}
        done.write_text(json.dumps(meta) + "\n", encoding="utf-8")
    meta = json.loads(done.read_text(encoding="utf-8"))
    repo = folder / "lib"
    folders = sorted(p.parent.relative_to(repo).as_posix() for p in repo.glob("*/*/SKILL.md"))
    names = [f.rsplit("/", 1)[1] for f in folders]
    return Library(folder, skills, names, folders, names[: skills // 10], meta["build_seconds"])


def _build(folder: Path, skills: int, seed: int, env: dict[str, str]) -> None:
    repo = folder / "lib"
    old = {**env, "GIT_AUTHOR_DATE": CREATED, "GIT_COMMITTER_DATE": CREATED}
    step = time.perf_counter()
    make_library(repo, skills, seed)
    _say(f"{skills}: generated", step)
    run([*gitcurator_cmd(), "init", str(repo), "--quiet"], folder, old)
    _say(f"{skills}: init", step)
    finish(folder, skills, env)


def finish(folder: Path, skills: int, env: dict[str, str]) -> None:
    """The build after `init`: track, record, flush, pack, the remote and a first sync."""
    repo = folder / "lib"
    gc = gitcurator_cmd()
    old = {**env, "GIT_AUTHOR_DATE": CREATED, "GIT_COMMITTER_DATE": CREATED}
    step = time.perf_counter()
    folders = sorted(p.parent.relative_to(repo).as_posix() for p in repo.glob("*/*/SKILL.md"))
    names = [f.rsplit("/", 1)[1] for f in folders]
    # Few calls (each reads the whole library), each within the 2 MB a command line holds.
    for i in range(0, len(names), TRACK_BATCH):
        batch = names[i : i + TRACK_BATCH]
        run([*gc, "track", *batch, "--origin", "agent", "-C", str(repo)], repo, old)
    _say(f"{skills}: tracked", step)
    record_uses(repo, names[skills // 10 :], USED, env)
    run([*gc, "flush", "-C", str(repo)], repo, env)
    _say(f"{skills}: recorded and flushed", step)
    run(["git", "repack", "-adq"], repo, env)
    run(["git", "prune-packed"], repo, env)
    remote = folder / "remote" / "skills.git"
    run(["git", "clone", "--quiet", "--bare", str(repo), str(remote)], folder, env)
    run(["git", "push", "--quiet", str(remote), NOTES], repo, env)
    run(["git", "remote", "add", "origin", f"file://{remote}"], repo, env)
    run([*gc, "sync", "--json"], repo, env)  # the first sync: what a clone in use has done
    run(["git", "remote", "remove", "origin"], repo, env)
    _say(f"{skills}: packed, remote made, first sync", step)


def _say(what: str, since: float) -> None:
    print(f"  [build] {what} ({time.perf_counter() - since:.0f} s)", flush=True)


def copy_repo(lib: Library, dest: Path, env: dict[str, str], with_remote: bool = False) -> Path:
    """A fresh copy of the library's repository at dest/lib (and of its remote at dest/remote).

    The work tree is hard-linked and .git copied; then git refreshes the index's stat data
    (new inodes), untimed, as the index of a library someone works in is fresh.
    """
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    copy = dest / "lib"
    subprocess.run(["cp", "-al", str(lib.repo), str(copy)], check=True)
    shutil.rmtree(copy / ".git")
    subprocess.run(["cp", "-a", str(lib.repo / ".git"), str(copy / ".git")], check=True)
    subprocess.run(
        ["git", "update-index", "-q", "--refresh"], cwd=copy, env=env, capture_output=True
    )
    if with_remote:
        (dest / "remote").mkdir()
        subprocess.run(["cp", "-a", str(lib.remote), str(dest / "remote")], check=True)
    return copy


def edit_skills(repo: Path, folders: list[str], line: str) -> None:
    """Append `line` to each folder's SKILL.md: unlinked first, so no hard link is written."""
    for folder in folders:
        skill_md = repo / folder / "SKILL.md"
        text = skill_md.read_text(encoding="utf-8")
        skill_md.unlink()
        skill_md.write_text(text + line + "\n", encoding="utf-8")

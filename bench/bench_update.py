"""Time `gitcurator update` of skills from upstream against `git fetch` + `git merge`.

Usage: python bench/bench_update.py [--skills N] [--changed K] [--edited E] [--repeat R]
                                    [--keep DIR]

An upstream repository of N skills (SKILL.md of 12 lines plus a reference file each) is made
with real git. A library takes all of them with `gitcurator add` (one commit); upstream then
edits K skills (one line each, one commit) and the library edits E of them (another line, so
every merge is clean; half of the edits fall on skills upstream did not touch). Then:
  gitcurator: `gitcurator update` (fetch the source once, merge K folders three-way, one commit)
  git: in a clone of upstream's old commit with the same E local edits committed,
       `git fetch` + `git merge` of upstream's new commit (the same three-way work, by git).
Each figure is one real process, Python start-up included, over a file path (no network).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir


def _git(env: dict[str, str], cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout


def _skill(name: str, tag: str = "") -> str:
    lines = [f"Step {i} of {name}.{tag if i == 2 else ''}" for i in range(1, 11)]
    return f"---\nname: {name}\ndescription: Use when a task needs {name}.\n---\n\n# {name}\n\n" + (
        "\n".join(lines) + "\n"
    )


def _edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


def run(work: Path, skills: int, changed: int, edited: int, repeat: int) -> None:
    env = bench_env(work / "home")
    (work / "home").mkdir()
    upstream, library, clone = work / "upstream", work / "library", work / "clone"
    names = [f"skill-{i:04d}" for i in range(skills)]
    upstream.mkdir()
    _git(env, upstream, "init", "--quiet", "-b", "main")
    for name in names:
        folder = upstream / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(_skill(name))
        (folder / "reference.md").write_text(f"Notes for {name}.\n" * 20)
    _git(env, upstream, "add", "-A")
    _git(env, upstream, "commit", "--quiet", "-m", "skills")
    library.mkdir()
    (library / "README.md").write_text("my library\n")
    timed([*GITCURATOR, "init", str(library), "--quiet"], work, env)
    add_s, _ = timed([*GITCURATOR, "add", str(upstream), *names, "-C", str(library)], work, env)
    _git(env, work, "clone", "--quiet", str(upstream), str(clone))

    touched = names[:changed]
    for name in touched:
        _edit(
            upstream / "skills" / name / "SKILL.md", f"Step 2 of {name}.", f"Step 2 of {name}, v2."
        )
    _git(env, upstream, "commit", "--quiet", "-am", "upstream edits")
    # Half the local edits on skills upstream changed, half on others; always another line.
    mine = touched[: edited // 2] + names[changed : changed + edited - edited // 2]
    for root, prefix in ((library, ""), (clone, "skills/")):
        for name in mine:
            _edit(root / f"{prefix}{name}" / "SKILL.md", f"Step 8 of {name}.", "Step 8, mine.")
        _git(env, root, "commit", "--quiet", "-am", "local edits")

    # The same starting state, copied for each round: the machine is shared, so the figures
    # are the best and the median of the rounds.
    ours, theirs, merged, same = [], [], 0, True
    for round_ in range(repeat):
        lib, cl = work / f"library-{round_}", work / f"clone-{round_}"
        shutil.copytree(library, lib, symlinks=True)
        shutil.copytree(clone, cl, symlinks=True)
        update_s, out = timed([*GITCURATOR, "update", "-C", str(lib)], work, env)
        merged = sum(1 for line in out.splitlines() if ": merged" in line)
        fetch_s, _ = timed(["git", "fetch", "--quiet", "origin"], cl, env)
        merge_s, _ = timed(["git", "merge", "--quiet", "--no-edit", "origin/main"], cl, env)
        ours.append(update_s)
        theirs.append(fetch_s + merge_s)
        same = same and all(
            (lib / name / "SKILL.md").read_text() == (cl / "skills" / name / "SKILL.md").read_text()
            for name in names
        )
    floor = min(timed([*GITCURATOR, "--help"], work, env)[0] for _ in range(repeat))
    print(f"skills: {skills}, changed upstream: {changed}, edited locally: {edited}")
    print(f"rounds: {repeat} (best, median)")
    print(f"gitcurator add of {skills} skills:   {add_s:5.2f} s")
    print(f"gitcurator update ({merged} merged):  {min(ours):5.2f} s, {median(ours):5.2f} s")
    print(f"git fetch + git merge:         {min(theirs):5.2f} s, {median(theirs):5.2f} s")
    print(f"gitcurator --help (start-up):  {floor:5.2f} s")
    print(f"same SKILL.md files on both sides: {same}")
    shutil.rmtree(work / "home", ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=200, help="skills in the source (200)")
    parser.add_argument("--changed", type=int, default=20, help="changed upstream (20)")
    parser.add_argument("--edited", type=int, default=5, help="edited locally (5)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds timed (5)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.changed, args.edited, args.repeat)


if __name__ == "__main__":
    main()

"""Time `gitcurator refs` and a pass's reference scan on N skills holding M references.

Usage: python bench/bench_refs.py [--skills N] [--refs M] [--keep DIR]

Builds the library (bench/make_library.py), then writes M references into it: each skill's
SKILL.md names other skills in every form (inline code, skill:, /, $, prose, a link into the
sibling's folder), and 20 AGENTS.md files name some more; commits it and adopts it with init.
Then times, as real processes, `gitcurator refs NAME` (text and --json) and `run --dry-run`
with the default reference_files and with `reference_files: []`; and in this process the
reference scan alone and the load step of a pass with and without it (best of 3).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from make_library import make_library

CREATED = "2026-01-01T00:00:00Z"
NOW = "2026-06-01T00:00:00Z"
FORMS = (
    "See `{name}` for that.",
    "Load skill:{name} first.",
    "Then run /{name}.",
    "Codex: ${name}.",
    "The {name} skill helps.",
    "[{name}](../../{folder}/SKILL.md)",
)
AGENTS_FILES = 20


def add_references(repo: Path, total: int, seed: int = 7) -> int:
    """Write `total` references into the library; returns how many were written."""
    rng = random.Random(seed)
    folders = sorted(p.parent.relative_to(repo).as_posix() for p in repo.glob("*/*/SKILL.md"))
    in_agents = total // 10
    per_skill, extra = divmod(total - in_agents, len(folders))
    written = 0
    for i, folder in enumerate(folders):
        lines = []
        for _ in range(per_skill + (1 if i < extra else 0)):
            other = folders[rng.randrange(len(folders))]
            if other == folder:
                other = folders[(folders.index(other) + 1) % len(folders)]
            form = FORMS[rng.randrange(len(FORMS))]
            lines.append(form.format(name=other.rsplit("/", 1)[1], folder=other))
        path = repo / folder / "SKILL.md"
        path.write_text(path.read_text() + "\n" + "\n".join(lines) + "\n")
        written += len(lines)
    for k in range(AGENTS_FILES):
        names = [
            folders[rng.randrange(len(folders))].rsplit("/", 1)[1]
            for _ in range(in_agents // AGENTS_FILES)
        ]
        where = repo / (f"teams/t{k}/AGENTS.md" if k else "AGENTS.md")
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text("# Skills\n\n" + "\n".join(f"- skill:{n}" for n in names) + "\n")
        written += len(names)
    return written


def best(fn: Callable[[], object], times: int = 3) -> float:
    """The fastest of `times` calls, in seconds."""
    found = []
    for _ in range(times):
        start = time.perf_counter()
        fn()
        found.append(time.perf_counter() - start)
    return min(found)


def in_process(repo: Path) -> dict[str, float | int]:
    """The scan cold (no cache) and warm, and the load step of a pass with and without it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from gitcurator.curation import pass_inputs
    from gitcurator.curation.reference_cache import tree_references
    from gitcurator.library import open_repo
    from gitcurator.references.graph import ReferenceGraph
    from gitcurator.references.scan import scan_entries
    from gitcurator.skills.document import find_skills
    from gitcurator.timeutil import parse_time

    now = parse_time(NOW)
    with open_repo(repo) as lib:
        store, config = lib.store, lib.config
        entries = store.head_entries()
        locations = find_skills(entries, config.skills_dir, config.include)
        graph, _ = scan_entries(entries, store.read_blob, locations, config.reference_files)
        cold = best(
            lambda: scan_entries(entries, store.read_blob, locations, config.reference_files)
        )
        tree_references(store, config, entries, locations, {})  # fills the cache
        warm = best(lambda: tree_references(store, config, entries, locations, {}))
        with_scan = best(lambda: pass_inputs.load_pass(lib, now))
        original = pass_inputs.tree_references
        pass_inputs.tree_references = lambda *args, **kw: ReferenceGraph()  # type: ignore[assignment]
        try:
            without = best(lambda: pass_inputs.load_pass(lib, now))
        finally:
            pass_inputs.tree_references = original  # type: ignore[assignment]
    return {
        "found": len(graph.references),
        "cold": cold,
        "warm": warm,
        "with": with_scan,
        "without": without,
    }


def run(work: Path, skills: int, refs: int) -> None:
    (work / "home").mkdir()
    env = bench_env(work / "home")
    repo = work / "lib"
    make_library(repo, skills)
    written = add_references(repo, refs)
    old = {**env, "GIT_AUTHOR_DATE": CREATED, "GIT_COMMITTER_DATE": CREATED}
    timed([*GITCURATOR, "init", str(repo), "--quiet"], work, old)
    name = sorted(p.parent.name for p in repo.glob("*/*/SKILL.md"))[skills // 2]
    cache = repo / ".git/gitcurator/references-cache.json"
    refs = [*GITCURATOR, "refs", name, "-C", str(repo)]
    cold, out = timed(refs, work, env)  # no cache yet: every file read and scanned
    warm, _ = timed(refs, work, env)
    as_json, _ = timed([*refs, "--json"], work, env)
    dry = [*GITCURATOR, "run", "--now", NOW, "--dry-run", "--json", "-C", str(repo)]
    timed([*GITCURATOR, "status", "-C", str(repo)], work, env)
    with_files, _ = timed(dry, work, env)
    config = repo / ".gitcurator.yaml"
    text = config.read_text()
    config.write_text(text + "reference_files: []\n")
    no_files, _ = timed(dry, work, env)
    config.write_text(text)
    cache.unlink()
    os.environ.update({k: env[k] for k in ("HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")})
    found = in_process(repo)
    print(f"library: {skills} skills, {written} references written, {found['found']} found")
    print(f"gitcurator refs {name}, cold:  {cold:6.2f} s  ({out.splitlines()[1]})")
    print(f"gitcurator refs, warm cache:      {warm:6.2f} s")
    print(f"gitcurator refs --json, warm:     {as_json:6.2f} s")
    print(f"run --dry-run, reference files:   {with_files:6.2f} s")
    print(f"run --dry-run, reference_files []: {no_files:6.2f} s")
    print(f"reference scan, no cache:         {found['cold']:6.2f} s  (in process, best of 3)")
    print(f"reference scan, warm cache:       {found['warm']:6.2f} s")
    print(f"pass load step with the scan:     {found['with']:6.2f} s  (warm cache)")
    print(f"pass load step without the scan:  {found['without']:6.2f} s")
    print(f"the scan's overhead on the load:  {found['with'] - found['without']:+6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--refs", type=int, default=30_000)
    parser.add_argument("--keep", type=Path, help="work in DIR (must not exist) and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.refs)


if __name__ == "__main__":
    main()

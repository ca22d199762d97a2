"""gitcurator on public skill libraries: what it finds, what it reports, how its clusters score.

Usage: python bench/real_libraries.py [--tree DIR] [--library NAME ...] [--no-validate]
                                      [--no-fixture]

The libraries come from tests/data/fetch.py (PyPI, npm, and GitHub mirrors where there are
some); those that cannot be had are named and skipped. `--tree` is the gitcurator checkout to
measure (default: this one), run as `python -m gitcurator` with that tree first on PYTHONPATH,
so the same script prints "before" and "after" from two worktrees. Per library it prints:

- skills `gitcurator list --json` shows (after `init --no-verify` of a copy) against
  `find -name SKILL.md`;
- default-mode errors and warnings of `validate --json`, counted per rule;
- strict-mode agreement with the reference validator skills-ref: per skill, whether
  `validate --strict` finds an error exactly when skills-ref does;
- the clusters of the tree's model-free clustering (umbrella.clusters) over the whole library.

Then the labelled fixture (tests/data/sibling_labels.json: 150 skills, hand-labelled sibling
groups): pairwise precision and recall of the clusters, and the pairs `commit`'s
near-duplicate guard would refuse when each skill is committed last.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_validate_init import bench_env  # noqa: E402

LABELS = ROOT / "tests" / "data" / "sibling_labels.json"

# Run inside the measured tree: reads [[name, path-of-skill-folder], ...] on stdin, prints the
# clusters and the guard's matches. Only APIs both the base and later trees have are used.
PROBE = r"""
import json, sys
from pathlib import Path
from gitcurator.skills.document import parse_skill_md
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.clusters import clusters
from gitcurator.umbrella.near_duplicates import find_similar, profile

request = json.load(sys.stdin)
skills = []
for name, folder in request["skills"]:
    try:
        doc = parse_skill_md((Path(folder) / "SKILL.md").read_bytes())
    except Exception:
        continue
    skills.append(Candidate(name, name, doc.description or "", doc.body))
found = [list(c.members) for c in clusters(skills)]
guard = []
if request["guard"]:
    profiles = [profile(s) for s in skills]
    for i, skill in enumerate(skills):
        others = profiles[:i] + profiles[i + 1:]
        guard += [[m.new, m.existing, m.score] for m in find_similar([skill], others)]
import gitcurator
origin = str(Path(gitcurator.__file__).resolve().parents[1])
print(json.dumps({"read": len(skills), "clusters": found, "guard": guard, "tree": origin}))
"""


def load_fetch() -> ModuleType:
    """tests/data/fetch.py, loaded by path (tests/data is not a package)."""
    path = ROOT / "tests" / "data" / "fetch.py"
    spec = importlib.util.spec_from_file_location("gitcurator_bench_fetch", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def environment(tree: Path, home: Path) -> dict[str, str]:
    """The measured tree first on the path, a fixed identity, no user or system git config.

    Every process runs in `home` (its HOME): `python -m` and `-c` put the current folder
    before PYTHONPATH, and run from a checkout they would measure that one instead."""
    env = bench_env(home)
    env["PYTHONPATH"] = str(tree)
    return env


def gitcurator(env: dict[str, str], *args: str, stdin: str | None = None) -> Any:
    """Run `python -m gitcurator ARGS` and parse its JSON output."""
    done = subprocess.run(
        [sys.executable, "-m", "gitcurator", *args],
        env=env, cwd=env["HOME"], input=stdin, capture_output=True, text=True, check=False,
    )  # fmt: skip
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        why = f"gitcurator {' '.join(args)} failed ({done.returncode}): {done.stderr}"
        raise SystemExit(why) from None


def probe(env: dict[str, str], skills: list[tuple[str, Path]], guard: bool) -> dict[str, Any]:
    """Clusters (and guard matches) of the measured tree over `skills`."""
    request = {"skills": [[n, str(p)] for n, p in skills], "guard": guard}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=env["HOME"], input=json.dumps(request),
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout)
    if Path(result["tree"]) != Path(env["PYTHONPATH"]):
        raise SystemExit(f"measured {result['tree']}, not {env['PYTHONPATH']}")
    return result


def skill_folders(library: Path) -> list[Path]:
    """Every folder holding a SKILL.md, as `find -name SKILL.md` sees them (.git aside)."""
    found = (p.parent for p in library.rglob("SKILL.md") if ".git" not in p.parts)
    return sorted(found)


def strict_agreement(repo: Path, env: dict[str, str]) -> tuple[int, int, int, list[str]]:
    """(agreeing skills, skills, skills gitcurator checked, disagreeing folders) of
    `validate --strict` and skills-ref, per folder holding a SKILL.md."""
    from skills_ref.validator import validate  # the reference validator (test extra)

    report = gitcurator(env, "-C", str(repo), "validate", "--strict", "--json")
    folders = [f.relative_to(repo).as_posix() for f in skill_folders(repo)]
    refused = set()
    for finding in report["findings"]:
        if finding["level"] == "error":
            owners = [f for f in folders if finding["path"].startswith(f + "/")]
            refused.update(owners[-1:])  # the innermost skill holding the file
    differ = [f for f in folders if bool(validate(repo / f)) != (f in refused)]
    return len(folders) - len(differ), len(folders), report["skills_checked"], differ


def measure_library(name: str, library: Path, env: dict[str, str], scratch: Path) -> None:
    """Print one library's figures."""
    repo = scratch / name
    shutil.copytree(library, repo, symlinks=True)
    found = len(skill_folders(repo))
    subprocess.run(
        [sys.executable, "-m", "gitcurator", "init", str(repo), "--quiet", "--no-verify"],
        env=env, cwd=env["HOME"], capture_output=True, check=True,
    )  # fmt: skip
    listed = gitcurator(env, "-C", str(repo), "list", "--json")
    print(f"\n## {name}: {len(listed)} skills listed, {found} SKILL.md found")
    report = gitcurator(env, "-C", str(repo), "validate", "--json")
    for level in ("error", "warning"):
        rules = Counter(f["rule"] for f in report["findings"] if f["level"] == level)
        total = sum(rules.values())
        detail = ", ".join(f"{rule} {count}" for rule, count in sorted(rules.items()))
        print(f"default {level}s: {total}" + (f" ({detail})" if detail else ""))
    agree, total, checked, differ = strict_agreement(repo, env)
    rate = f"{agree / total:.1%}" if total else "n/a"
    print(f"strict vs skills-ref: {agree}/{total} skills agree ({rate}; {checked} checked)")
    for rel in differ[:5]:
        print(f"  differs: {rel}")
    if len(differ) > 5:
        print(f"  ... and {len(differ) - 5} more")
    skills = [(p.name, p) for p in skill_folders(repo)]
    result = probe(env, skills, guard=False)
    sizes = Counter(len(c) for c in result["clusters"])
    clustered = sum(len(c) for c in result["clusters"])
    by_size = ", ".join(f"{n}x{size}" for size, n in sorted(sizes.items()))
    print(
        f"clusters: {len(result['clusters'])} holding {clustered} of {result['read']} skills"
        + (f" (count x size: {by_size})" if by_size else "")
    )


def measure_fixture(fetch: ModuleType, env: dict[str, str]) -> None:
    """Print pairwise precision and recall of the clusters on the labelled fixture."""
    labels = json.loads(LABELS.read_text())
    skills: list[tuple[str, Path]] = []
    group: dict[str, str | None] = {}
    for row in labels["skills"]:
        try:
            folder = fetch.library(row["library"]) / row["path"]
        except fetch.FetchError as exc:
            print(f"\n## fixture: skipped, {row['library']} cannot be had: {exc}")
            return
        name = row["path"].rsplit("/", 1)[-1]
        skills.append((name, folder))
        group[name] = row["group"]
    result = probe(env, skills, guard=True)
    truth = {
        pair
        for pair in itertools.combinations(sorted(group), 2)
        if group[pair[0]] is not None and group[pair[0]] == group[pair[1]]
    }
    said = {p for c in result["clusters"] for p in itertools.combinations(sorted(c), 2)}
    hits = len(truth & said)
    precision = hits / len(said) if said else 0.0
    recall = hits / len(truth) if truth else 0.0
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    print(f"\n## fixture: {len(skills)} skills, {len(truth)} sibling pairs labelled")
    print(
        f"clusters: {len(result['clusters'])}, pairs {len(said)}, right {hits}: "
        f"precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f}"
    )
    wrong = sorted({tuple(sorted(m[:2])) for m in result["guard"]} - truth)
    refused = {m[0] for m in result["guard"]}
    print(
        f"near-duplicate guard: {len(refused)} of {len(skills)} skills refused when committed "
        f"last, {len(wrong)} pairs of them not siblings"
    )
    for a, b in wrong[:5]:
        score = max(m[2] for m in result["guard"] if {m[0], m[1]} == {a, b})
        print(f"  refused: {a} ~ {b} ({score:.2f})")


def main() -> int:
    """Measure every library that can be had, then the fixture."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="gitcurator checkout to measure")
    parser.add_argument("--library", action="append", help="only this library (repeatable)")
    parser.add_argument("--no-fixture", action="store_true", help="skip the labelled fixture")
    parser.add_argument("--no-libraries", action="store_true", help="only the labelled fixture")
    args = parser.parse_args()
    fetch = load_fetch()
    tree = args.tree.resolve()
    commit = subprocess.run(
        ["git", "-C", str(tree), "log", "-1", "--format=%h %s"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()  # fmt: skip
    print(f"# gitcurator tree {tree} ({commit or 'not a git checkout'})")
    with tempfile.TemporaryDirectory(prefix="gitcurator-real-") as tmp:
        scratch = Path(tmp)
        env = environment(tree, scratch)
        for name in [] if args.no_libraries else args.library or list(fetch.LIBRARIES):
            try:
                library = fetch.library(name)
            except fetch.FetchError as exc:
                print(f"\n## {name}: skipped, {exc}")
                continue
            measure_library(name, library, env, scratch)
        if not args.no_fixture:
            measure_fixture(fetch, env)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

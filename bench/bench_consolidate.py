"""Time `gitcurator run --consolidate` against the local fake OpenAI endpoint, and count its cost.

Usage: python bench/bench_consolidate.py [--families N] [--skills N] [--singletons N] [--seed S]
                                         [--keep-every K] [--json-object] [--no-git] [--keep DIR]

The library is bench/bench_cluster.py's (same generator, same seed, so the clusters compare):
prefix families of siblings plus unrelated singletons, every skill agent-made and committed
20 days before `--now`. It becomes a real repository; tests/fake_openai.py's server answers
each cluster's request with an umbrella that absorbs every member (its body is their
descriptions and bodies one after the other, so retention passes), or with a "keep all" plan
for one cluster in `--keep-every`. `gitcurator clusters --json` and `gitcurator run
--consolidate --json` (after the same pass with --dry-run) run as real processes, timed.

Token figures are in the fake server's unit (characters // 4). A candidate's text is its
description + body + the list of its support files' paths: what the prompt is made of. The
ratio of prompt tokens to that text is computed against every candidate (singletons are not
sent, so they lower it) and against the clustered candidates only (the text actually sent).

The fake counts the messages' text only: in json_schema mode (the default) the schema travels
in response_format and is not counted; `--json-object` makes the endpoint refuse json_schema,
so the client spells the schema out in every system prompt, and the fake counts it.

With `--no-git` the comparison with plain git (the same umbrella commits replayed with
`git mv`, `git add`, `git commit`, one commit per umbrella) is skipped.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import zlib
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from bench_cluster import family_skills, singleton_skills
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from figures import Figure, report, run_measured
from support.fake_openai import FakeOpenAI, Response, count_tokens

from gitcurator.skills.document import render_skill_md
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.clusters import clusters

SCRIPT = "bench_consolidate"
HEADER = re.compile(r"^Cluster `([^`]*)`: (\d+) sibling skills: (.*)\.$")
ISO = "%Y-%m-%dT%H:%M:%SZ"


def text_tokens(c: Candidate) -> int:
    """A candidate's text in the fake's unit: description + body + support file paths."""
    return count_tokens(c.description + c.body + "".join(c.support_files))


# -- the library -------------------------------------------------------------------------------


def generate(args: argparse.Namespace) -> tuple[list[list[Candidate]], list[Candidate]]:
    """bench_cluster.py's library, drawn in the same order from the same seed."""
    rng = random.Random(args.seed)
    families = family_skills(rng, args.families, args.skills - args.singletons)
    return families, singleton_skills(rng, args.singletons)


def write_library(root: Path, skills: Sequence[Candidate]) -> None:
    for c in skills:
        folder = root / c.path
        folder.mkdir(parents=True)
        front = {"name": c.name, "description": c.description}
        (folder / "SKILL.md").write_text(render_skill_md(front, c.body), encoding="utf-8")
        for rel in c.support_files:
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            topic = Path(rel).stem
            (folder / rel).write_text(f"# {topic}\n\nNotes on {topic} for {c.name}.\n")


def build_repo(work: Path, skills: Sequence[Candidate], env: dict[str, str], now: datetime) -> Path:
    """The library as a repository: committed 20 days before `now`, every skill agent-made."""
    repo = work / "lib"
    write_library(repo, skills)
    past = (now - timedelta(days=20)).strftime(ISO)
    old = {**env, "GIT_AUTHOR_DATE": past, "GIT_COMMITTER_DATE": past}
    timed([*GITCURATOR, "init", str(repo), "--quiet"], work, old)
    names = sorted(c.name for c in skills)
    timed([*GITCURATOR, "track", *names, "--origin", "agent", "-C", str(repo)], work, old)
    return repo


def configure(repo: Path, base_url: str, max_requests: int, env: dict[str, str]) -> None:
    config = repo / ".gitcurator.yaml"
    text = config.read_text().split("llm:")[0] + "llm:\n"
    settings = {
        "base_url": base_url,
        "model": "fake-model",
        "max_requests": max_requests,
        "retries": 2,
        "timeout_seconds": 30,
    }
    text += "".join(f"  {k}: {json.dumps(v)}\n" for k, v in settings.items())
    config.write_text(text)
    timed(["git", "commit", "-qm", "configure the model", "--", ".gitcurator.yaml"], repo, env)


# -- the fake model ----------------------------------------------------------------------------


class Planner:
    """Answers a cluster's request: one umbrella absorbing every member, or keep them all."""

    def __init__(self, texts: dict[str, Candidate], keep_every: int) -> None:
        self.texts = texts
        self.keep_every = keep_every
        self.unparsed = 0

    def __call__(self, request: dict[str, Any]) -> Response | str:
        user = request["messages"][-1]["content"]
        m = HEADER.match(user.split("\n", 1)[0])
        if m is None:
            self.unparsed += 1
            return json.dumps({"umbrellas": [], "keep": []})
        key, names = m.group(1), m.group(3).split(", ")
        if self.keep_every and zlib.crc32(key.encode()) % self.keep_every == 0:
            keep = [{"skill": n, "reason": "about something else"} for n in names]
            return json.dumps({"umbrellas": [], "keep": keep})
        # Merge into the broad sibling when there is one, else a new umbrella beside them.
        name = key if key in names else f"{key}-handbook"
        sections = [
            f"## {n}\n\n{self.texts[n].description}\n\n{self.texts[n].body.strip()}" for n in names
        ]
        description = f"Everything the {key} skills did ({', '.join(names)})"
        if len(description) > 1000:
            description = description[:996].rsplit(" ", 1)[0] + " ..."
        umbrella = {
            "name": name,
            "description": description,
            "body": f"# {name}\n\n" + "\n\n".join(sections) + "\n",
            "absorb": names,
            "demote": [],
            "reason": f"{len(names)} sessions of one class of task",
        }
        return json.dumps({"umbrellas": [umbrella], "keep": []})


# -- plain git doing the same commits ----------------------------------------------------------


def git_replay(
    repo: Path, copy: Path, commits: Sequence[str], folders: set[str], env: dict[str, str]
) -> float:
    """Seconds plain git takes to make the same umbrella commits on `copy` (the repository as
    it was before the pass): per commit, one `git mv` per archive folder of the skills it
    folds, the umbrella's files written, one `git add` and one `git commit`. Reading the
    changes out of the pass's commits is not timed."""
    plans = []
    for commit in commits:
        out = subprocess.run(
            ["git", "diff-tree", "-r", "--no-renames", "--name-status", f"{commit}^", commit],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        moved: set[str] = set()
        written: dict[str, bytes] = {}
        for line in out.splitlines():
            status, path = line.split("\t", 1)
            if status == "D":
                parent = path
                while parent not in folders:
                    parent = str(Path(parent).parent)
                moved.add(parent)
            elif not path.startswith(".archive/"):
                written[path] = subprocess.run(
                    ["git", "cat-file", "blob", f"{commit}:{path}"],
                    cwd=repo,
                    env=env,
                    capture_output=True,
                    check=True,
                ).stdout
        plans.append((sorted(moved), written))
    start = time.perf_counter()
    for k, (moved, written) in enumerate(plans):
        by_target: dict[str, list[str]] = {}
        for folder in moved:
            by_target.setdefault(str(Path(".archive", folder).parent), []).append(folder)
        for target, group in sorted(by_target.items()):
            (copy / target).mkdir(parents=True, exist_ok=True)
            timed(["git", "mv", *group, f"{target}/"], copy, env)
        for path, data in written.items():
            (copy / path).parent.mkdir(parents=True, exist_ok=True)
            (copy / path).write_bytes(data)
        if written:
            timed(["git", "add", "--", *written], copy, env)
        timed(["git", "commit", "-qm", f"umbrella {k}"], copy, env)
    return time.perf_counter() - start


# -- the run -----------------------------------------------------------------------------------


def mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def reason_kind(reason: str, names: set[str]) -> str:
    """A refusal reason with skill names, numbers and quoted words blanked, for counting."""
    reason = re.sub(r"'[^']*'", "'…'", reason)
    words = ["<skill>" if w.strip(".,:;()") in names else w for w in reason.split(" ")]
    return re.sub(r"\d+(\.\d+)?%?", "N", " ".join(words))[:110]


def run(work: Path, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    now = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=1)
    now_iso = now.strftime(ISO)
    (work / "home").mkdir()
    env = bench_env(work / "home")
    families, loners = generate(args)
    generated = [c for f in families for c in f] + loners
    t0 = time.perf_counter()
    repo = build_repo(work, generated, env, now)
    built = time.perf_counter() - t0

    # What gitcurator reads back: the candidates, and clustering in process.
    from gitcurator.commands.clusters import load_candidates
    from gitcurator.library import open_repo

    t0 = time.perf_counter()
    with open_repo(repo) as opened:
        loaded = load_candidates(opened, now_iso)
    load_s = time.perf_counter() - t0
    candidates = loaded.candidates
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        found = clusters(candidates)
        times.append(time.perf_counter() - t0)
    same_as_generator = [c.members for c in clusters(generated)] == [c.members for c in found]

    cl_s, out = timed([*GITCURATOR, "clusters", "--json", "--now", now_iso], repo, env)
    shown = json.loads(out[out.index("{") :])
    cli_clusters = [tuple(c["members"]) for c in shown["clusters"]]

    by_name = {c.name: c for c in candidates}
    clustered = {n for c in found for n in c.members}
    singles = sorted(set(by_name) - clustered)
    planner = Planner(by_name, args.keep_every)
    # With --json-object the endpoint refuses structured outputs once, as many local servers
    # do: the client falls back for good and spells the schema out in the system prompt.
    refusals = [Response.refuse_json_schema()] if args.json_object else []
    with FakeOpenAI(handler=planner) as server:
        configure(repo, server.base_url, len(found) + 10, env)
        copy = work / "git-copy"
        if args.git:
            shutil.copytree(repo, copy, symlinks=True)
        pristine = work / "pristine"  # the repository before any pass: each rerun copies it
        shutil.copytree(repo, pristine, symlinks=True)
        cmd = [*GITCURATOR, "run", "--consolidate", "--json", "--now", now_iso]
        # A dry run first: the same requests and checks, no object written.
        server.script(*refusals)
        dry_s, _ = timed([*cmd, "--dry-run"], repo, env)
        before = server.count
        server.script(*refusals)
        t0 = time.perf_counter()
        done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True)
        pass_s = time.perf_counter() - t0
        received = server.count - before
        requests = server.requests[before + len(refusals) :]  # the ones answered with a plan
        # The same pass again on fresh copies, for a median: llm.wall_seconds of each.
        step_seconds = (
            [float(json.loads(done.stdout)["llm"]["wall_seconds"])] if done.stdout else []
        )
        pass_seconds = [pass_s]
        for k in range(1, args.runs):
            again = work / f"rerun-{k}"
            shutil.copytree(pristine, again, symlinks=True)
            server.script(*refusals)
            sample = run_measured(cmd, again, env)
            pass_seconds.append(sample.seconds)
            step_seconds.append(float(json.loads(sample.output)["llm"]["wall_seconds"]))
            shutil.rmtree(again)
    if done.returncode != 0 or not done.stdout:
        sys.exit(f"gitcurator run --consolidate exited {done.returncode}:\n{done.stderr[-3000:]}")
    doc = json.loads(done.stdout)
    llm = doc["llm"]

    users = [r["messages"][-1]["content"] for r in requests]
    sent_sets = []
    for user in users:
        m = HEADER.match(user.split("\n", 1)[0])
        sent_sets.append(tuple(m.group(3).split(", ")) if m else ())
    leaked = sorted({n for n in singles for u in users if mentions(u, n)})
    loner_names = {c.name for c in loners}
    loners_sent = sorted({n for s in sent_sets for n in s} & loner_names)
    server_prompt = sum(
        count_tokens("".join(m["content"] for m in r["messages"])) for r in requests
    )
    all_text = sum(text_tokens(c) for c in candidates)
    sent_text = sum(text_tokens(by_name[n]) for n in clustered)
    system_tokens = sum(count_tokens(r["messages"][0]["content"]) for r in requests)
    schema_mode = Counter(r.get("response_format", {}).get("type") for r in requests)

    truth = {tuple(sorted(c.name for c in f)) for f in families}
    exact = sum(1 for c in found if c.members in truth)
    statuses = Counter(c.get("status") for c in llm["clusters"])
    applied = doc["consolidations"]
    umbrellas_refused = [r for r in doc["refused"] if r["what"].startswith("umbrella ")]
    failed = [r for r in doc["refused"] if r["what"].startswith("cluster ")]
    names = set(by_name) | {f"{c.key}-handbook" for c in found} | {c.key for c in found}
    top = Counter(reason_kind(r["reason"], names) for r in doc["refused"]).most_common(5)

    git_s = None
    if args.git and applied:
        commits = [c["commit"] for c in applied if "commit" in c]
        git_runs = [git_replay(repo, copy, commits, {c.path for c in candidates}, env)]
        for k in range(1, args.runs):
            again = work / f"git-copy-{k}"
            shutil.copytree(pristine, again, symlinks=True)
            git_runs.append(git_replay(repo, again, commits, {c.path for c in candidates}, env))
            shutil.rmtree(again)
        git_s = statistics.median(git_runs)

    apart = sum(1 for f in families for c in f if c.name.endswith("-recipe"))
    ms = sorted(t * 1000 for t in times)
    print(
        f"library: {len(generated)} skills: {sum(map(len, families))} in {len(families)} "
        f"families ({apart} named apart), {len(loners)} singletons; repository built in "
        f"{built:.1f} s"
    )
    print(
        f"candidates: {len(candidates)} (left out: {loaded.left_out or 'none'}); "
        f"clusters: {len(found)} holding {len(clustered)} skills; singletons: {len(singles)}"
    )
    print(
        f"clustering: in process cluster.clusters() median {ms[len(ms) // 2]:.0f} ms "
        f"(min {ms[0]:.0f} ms, {args.repeat} runs; loading the candidates {load_s * 1000:.0f} ms); "
        f"`gitcurator clusters --json` {cl_s:.2f} s (process, {len(cli_clusters)} clusters, "
        f"{'same' if cli_clusters == [c.members for c in found] else 'DIFFERENT'} clusters)"
    )
    print(
        f"  same clusters as bench_cluster.py's in-memory candidates: "
        f"{'yes' if same_as_generator else 'NO'}"
    )
    print(
        f"pass: `gitcurator run --consolidate --json` {pass_s:.2f} s wall "
        f"({llm['wall_seconds']:.2f} s of it in the umbrella step: candidates, clusters, requests, "
        f"checks and commits; llm.wall_seconds); the same with --dry-run (no object written) "
        f"{dry_s:.2f} s"
    )
    print(
        f"requests: {llm['requests']} asks for {len(found)} clusters "
        f"({'one per cluster' if llm['requests'] == len(found) == len(requests) else 'MISMATCH'}); "
        f"{llm['http_requests']} HTTP requests counted by the pass, {received} received by the "
        f"server ({len(refusals)} json_schema refused); "
        f"response_format {dict(schema_mode)}; unparsed headers {planner.unparsed}"
    )
    print(
        f"  clusters as sent == clusters computed: "
        f"{'yes' if sent_sets == [c.members for c in found] else 'NO'}; singleton names in any "
        f"request: {len(leaked)}{' ' + ', '.join(leaked[:5]) if leaked else ''}; generated "
        f"singletons placed in a cluster by wording: {len(loners_sent)}"
    )
    print(
        f"prompt tokens: {llm['prompt_tokens']} (server's own count {server_prompt}); "
        f"system prompt {system_tokens} of them "
        f"(about {system_tokens // max(1, len(requests))} per request); "
        f"completion tokens {llm['completion_tokens']}"
    )
    print(
        f"candidate text tokens (description + body + support file list): {all_text} for all "
        f"{len(candidates)} candidates, {sent_text} for the {len(clustered)} clustered"
    )
    print(
        f"ratio prompt / candidate text: {llm['prompt_tokens'] / all_text:.2f} (all candidates), "
        f"{llm['prompt_tokens'] / sent_text:.2f} (clustered only; target <= 1.5); "
        f"without the system prompt {(llm['prompt_tokens'] - system_tokens) / sent_text:.2f}"
    )
    print(
        f"clusters: {dict(statuses)}; umbrellas applied {len(applied)}, refused "
        f"{len(umbrellas_refused)}, clusters failed {len(failed)}; plans asked to keep all: "
        f"{statuses.get('kept', 0)}"
    )
    for kind, count in top:
        print(f"  {count:4d} x {kind}")
    print(f"families recovered exactly: {exact} of {len(families)}")
    if git_s is not None:
        print(
            f"plain git making the same {len(applied)} umbrella commits (git mv + add + commit "
            f"each): {git_s:.2f} s"
        )
    skills = len(generated)
    report(SCRIPT, skills, "run --consolidate, wall", Figure(pass_seconds))
    if applied:
        per = Figure([1000 * t / len(applied) for t in step_seconds])
        report(SCRIPT, skills, f"umbrella step per applied umbrella ({len(applied)})", per, "ms")
        if git_s is not None:
            theirs = Figure([1000 * t / len(applied) for t in git_runs])
            report(SCRIPT, skills, "git mv + add + commit per umbrella", theirs, "ms")
            ratio = per.median / theirs.median
            report(SCRIPT, skills, "ratio umbrella step / git (target <= 1.0)", ratio, "x")
    print(f"bench total: {time.perf_counter() - started:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", type=int, default=150)
    parser.add_argument("--skills", type=int, default=1000, help="skills in all")
    parser.add_argument("--singletons", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5, help="in-process clustering runs")
    parser.add_argument(
        "--keep-every", type=int, default=10, help="about 1 cluster in K gets a keep-all plan"
    )
    parser.add_argument("--no-git", dest="git", action="store_false", help="skip plain git")
    parser.add_argument(
        "--runs", type=int, default=3, help="real passes (and git replays) for the medians"
    )
    parser.add_argument(
        "--json-object",
        action="store_true",
        help="the endpoint refuses json_schema: the schema goes into the system prompt",
    )
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args)


if __name__ == "__main__":
    main()

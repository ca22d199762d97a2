"""Time `gitcurator ingest` on large logs: Claude Code transcripts and a Hermes library.

Usage: python bench/bench_ingest.py [--transcripts N] [--uses N] [--big-mb MB] [--keep DIR]

(a) `ingest claude-code` over N synthetic transcripts holding N_USES Skill tool uses in all
    (real line shapes: user prompts, assistant text and tool_use lines, tool results padded
    like real tool output), at a tenth of the size and at full size: wall time and peak
    memory of the process (must stay flat as input grows), then a second run (nothing new);
(b) one transcript of BIG_MB megabytes (long tool outputs) with a few uses: peak memory;
(c) `ingest hermes` on the hermes-agent 0.19.0 library (tests/data/fetch.py) with a synthetic
    .usage.json, twice (the second records nothing: only growth counts).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "data"))
from bench_record import gitcurator_cmd
from bench_validate_init import bench_env, timed, work_dir
from make_library import make_library

FILLER = "x" * 600  # a tool result's text: most bytes of a real transcript are tool output


def transcript_lines(session: str, skills: list[str], uses: int, rng: random.Random) -> str:
    lines = []
    for i in range(uses):
        at = f"2026-09-{1 + i % 28:02d}T10:{i % 60:02d}:00.000Z"
        lines.append({"type": "user", "sessionId": session, "timestamp": at,
                      "message": {"role": "user", "content": "please continue"}})  # fmt: skip
        use_id = f"toolu_{session[:8]}_{i:06d}"
        lines.append({
            "type": "assistant", "sessionId": session, "timestamp": at, "uuid": use_id,
            "message": {"role": "assistant", "content": [
                {"type": "text", "text": "Let me use a skill."},
                {"type": "tool_use", "id": use_id, "name": "Skill",
                 "input": {"skill": rng.choice(skills)}}]},
        })  # fmt: skip
        result = {"type": "tool_result", "tool_use_id": use_id, "content": FILLER}
        lines.append({"type": "user", "sessionId": session, "timestamp": at,
                      "message": {"role": "user", "content": [result]}})  # fmt: skip
    return "".join(json.dumps(line) + "\n" for line in lines)


def measured(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds, peak resident memory (MB) and output of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    out = (proc.stdout.read() if proc.stdout else b"").decode()
    err = (proc.stderr.read() if proc.stderr else b"").decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"`{' '.join(cmd)}` failed:\n{err[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, out


def claude_run(work: Path, transcripts: int, uses: int, label: str) -> None:
    home = work / f"home-{label}"
    env = bench_env(home)
    library = home / ".claude" / "skills"
    skills = make_library(library, 200)
    timed([*gitcurator_cmd(), "init", str(library), "--quiet"], work, env)
    rng = random.Random(7)
    projects = home / ".claude" / "projects" / "-work-repo"
    projects.mkdir(parents=True)
    per = uses // transcripts
    size = 0
    for t in range(transcripts):
        path = projects / f"{t:08x}-5b1e-4c5e-9d3b-2f1e0a9c7d11.jsonl"
        path.write_text(transcript_lines(path.stem, skills, per, rng))
        size += path.stat().st_size
    cmd = [*gitcurator_cmd(), "ingest", "claude-code", "-C", str(library), "--json"]
    seconds, peak, out = measured(cmd, work, env)
    doc = json.loads(out)
    again, peak2, out2 = measured(cmd, work, env)
    print(
        f"(a) {label}: {transcripts} transcripts, {per * transcripts} tool uses, "
        f"{size / 1e6:.0f} MB: {seconds:.1f} s, peak memory {peak:.0f} MB, "
        f"{doc['recorded']} recorded; second run {again:.1f} s ({json.loads(out2)['events']} "
        f"events read), peak {peak2:.0f} MB"
    )


def big_transcript(work: Path, megabytes: int) -> None:
    home = work / "home-big"
    env = bench_env(home)
    library = home / ".claude" / "skills"
    skills = make_library(library, 20)
    timed([*gitcurator_cmd(), "init", str(library), "--quiet"], work, env)
    path = home / ".claude" / "projects" / "-work" / "big.jsonl"
    path.parent.mkdir(parents=True)
    block = transcript_lines("bigsession", skills, 10, random.Random(1)).replace(
        FILLER, "y" * 60_000
    )
    with path.open("w") as f:
        while f.tell() < megabytes << 20:
            f.write(block.replace("toolu_bigsessi", f"toolu_{f.tell():012d}"))
    cmd = [*gitcurator_cmd(), "ingest", "claude-code", str(path), "-C", str(library), "--json"]
    seconds, peak, out = measured(cmd, work, env)
    doc = json.loads(out)
    print(
        f"(b) one transcript of {path.stat().st_size / 1e6:.0f} MB: {seconds:.1f} s, peak memory "
        f"{peak:.0f} MB, {doc['recorded']} uses recorded"
    )


def hermes_run(work: Path) -> None:
    from fetch import FetchError, hermes_skills

    try:
        source = hermes_skills()
    except FetchError as exc:
        print(f"(c) skipped: {exc}")
        return
    home = work / "home-hermes"
    env = bench_env(home)
    skills = home / ".hermes" / "skills"
    shutil.copytree(source, skills)
    rng = random.Random(3)
    usage = {
        md.parent.name: {
            "created_by": rng.choice([None, "agent"]), "use_count": rng.randint(0, 60),
            "view_count": rng.randint(0, 60), "patch_count": rng.randint(0, 5),
            "last_used_at": "2026-10-01T10:00:00+00:00", "created_at": "2026-06-01T09:00:00+00:00",
            "state": "active", "pinned": False, "archived_at": None,
        }
        for md in sorted(skills.rglob("SKILL.md"))
    }  # fmt: skip
    (skills / ".usage.json").write_text(json.dumps(usage, indent=2))
    events = sum(u["use_count"] + u["view_count"] + u["patch_count"] for u in usage.values())
    timed([*gitcurator_cmd(), "init", str(skills), "--quiet", "--no-verify"], work, env)
    cmd = [*gitcurator_cmd(), "ingest", "hermes", "-C", str(skills), "--json"]
    first, peak, out = measured(cmd, work, env)
    second, _, out2 = measured(cmd, work, env)
    print(
        f"(c) hermes-agent 0.19.0 library, {len(usage)} skills, .usage.json worth {events} "
        f"events: first ingest {first:.1f} s ({json.loads(out)['recorded']} recorded, peak "
        f"{peak:.0f} MB), second {second:.1f} s ({json.loads(out2)['recorded']} recorded)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transcripts", type=int, default=1000)
    parser.add_argument("--uses", type=int, default=100_000)
    parser.add_argument("--big-mb", type=int, default=200)
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        claude_run(work, args.transcripts // 10, args.uses // 10, "a tenth")
        claude_run(work, args.transcripts, args.uses, "full size")
        big_transcript(work, args.big_mb)
        hermes_run(work)


if __name__ == "__main__":
    main()

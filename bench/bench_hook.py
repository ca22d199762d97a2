"""Time `gitcurator hook claude-code` for a Skill event, the command every skill load runs.

Usage: python bench/bench_hook.py [--skills N] [--keep DIR]

On a generated library (bench/make_library.py) connected with `gitcurator connect claude-code`
in an isolated HOME, the hook command is read back from the settings.json that connect wrote
and run as Claude Code runs it (the payload on stdin), interleaved with `python -c pass` and
`gitcurator record use NAME`. Target: median ≤ 6× `python -c pass`, the `record use` budget.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_record import gitcurator_cmd
from bench_validate_init import bench_env, timed, work_dir
from make_library import make_library

RUNS = 30


def hook_command(home: Path) -> list[str]:
    """The hook command connect installed for PostToolUse, as argv."""
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    commands = [h["command"] for g in settings["hooks"]["PostToolUse"] for h in g["hooks"]]
    (ours,) = [c for c in commands if " hook claude-code " in c]
    return shlex.split(ours)


def time_stdin(cmd: list[str], stdin: bytes, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or done.stdout:
        sys.exit(f"the hook exited {done.returncode} or printed {done.stdout[:200]!r}")
    return elapsed


def run(work: Path, skills: int) -> bool:
    home = work / "home"
    (home / ".claude").mkdir(parents=True)
    env = bench_env(home)
    library = home / ".claude" / "skills"
    names = make_library(library, skills)
    timed([*gitcurator_cmd(), "init", str(library), "--quiet"], work, env)
    timed([*gitcurator_cmd(), "connect", "claude-code"], work, env)
    hook = hook_command(home)
    payload = {
        "session_id": "8c35adc1-5b1e-4c5e-9d3b-2f1e0a9c7d11",
        "transcript_path": str(home / ".claude" / "projects" / "-work" / "s.jsonl"),
        "cwd": str(work),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Skill",
        "tool_input": {"skill": names[0]},
        "tool_response": {"success": True, "commandName": names[0]},
    }
    time_stdin(hook, json.dumps({**payload, "tool_use_id": "toolu_warm"}).encode(), env)
    samples: dict[str, list[float]] = {"hook": [], "record": [], "python": []}
    for i in range(RUNS):  # interleaved, so drift in the machine's load hits all alike
        stdin = json.dumps({**payload, "tool_use_id": f"toolu_{i:04d}"}).encode()
        samples["hook"].append(time_stdin(hook, stdin, env))
        samples["record"].append(
            timed([*gitcurator_cmd(), "record", "use", names[0]], library, env)[0]
        )
        samples["python"].append(time_stdin([sys.executable, "-c", "pass"], b"", env))
    medians = {k: statistics.median(v) for k, v in samples.items()}
    ratio = medians["hook"] / medians["python"]
    print(f"library: {skills} skills; hook command read from settings.json: {shlex.join(hook)}")
    print(f"median wall time of {RUNS} runs each:")
    print(f"  gitcurator hook claude-code (Skill event)  {medians['hook'] * 1000:7.1f} ms")
    print(f"  gitcurator record use NAME                 {medians['record'] * 1000:7.1f} ms")
    print(f"  python -c pass                             {medians['python'] * 1000:7.1f} ms")
    print(
        f"hook vs python start-up: {ratio:.1f}x (target ≤ 6x: {'met' if ratio <= 6 else 'MISSED'})"
    )
    journal = library / ".git" / "gitcurator" / "journal.jsonl"
    recorded = sum(1 for line in journal.read_text().splitlines() if '"claude-code"' in line)
    print(f"hook events in the journal: {recorded} (expected {RUNS + 1})")
    return recorded == RUNS + 1 and ratio <= 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    os.environ.pop("CLAUDE_CONFIG_DIR", None)
    with work_dir(parser, args.keep) as work:
        ok = run(work, args.skills)
    if not ok:
        sys.exit("the hook missed its budget or lost events")


if __name__ == "__main__":
    main()

"""Soak: three clones of one library recording, flushing, syncing and curating at once, with
random SIGKILLs, then a check that every event is where it must be.

Usage: python bench/soak.py [--minutes M] [--seed S] [--keep DIR]

A library of 24 skills is made a repository by `gitcurator init` and served from a bare copy by
a real `git daemon` on 127.0.0.1; three plain `git clone`s of it (A, B, C) take part. For
`--minutes` (default 10):
- 8 recorders (3 on A, 3 on B, 2 on C) each loop `gitcurator record use NAME` as real processes,
  on 16 user skills nobody curates; 1 call in 8 is SIGKILLed 0-800 ms after it starts;
- one chaos loop per clone runs, in random order, `flush`, `sync` (git://), `run` (a pass over
  8 agent skills, at a `--now` late enough to archive them), `merge`, `rollback` of a merged pass,
  and SIGKILLs 1 in 4 of them at a random moment.
At the end, with everything stopped: each clone flushes and syncs twice round (A B C A B C), and
  - every clone's `gitcurator list --json` use_count of each recorded skill lies between the calls
    that returned 0 ("must be present") and those plus the killed ones ("may be present"), and
    all three clones agree;
  - `git fsck --strict` is clean in every clone and in the served repository;
  - no `.lock` file is left under any `.git` (the flock files `.git/gitcurator/*.lock` are
    persistent by design: they are only checked to be free).
Exit codes of every command are counted; a 3 (internal error) anywhere is a failure.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sync import start_daemon
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir

RECORDED = [f"used-{k:02d}" for k in range(16)]  # user skills: recorded, never curated
CURATED = [f"agent-{k:02d}" for k in range(8)]  # agent skills: the passes archive them
RECORDERS = {"A": 3, "B": 3, "C": 2}
RECORD_KILL_ODDS = 8  # 1 record call in 8 is killed
CHAOS_KILL_ODDS = 4  # 1 flush/sync/run/merge/rollback in 4 is killed
CHAOS_ACTIONS = ("flush", "flush", "sync", "sync", "run", "merge", "rollback")
NOW0 = 1_900_000_000  # 2030-03-17: every skill is long idle at the passes' --now


class Tally:
    """What happened, counted under one lock by every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.must: Counter[str] = Counter()  # per skill: record calls that returned 0
        self.maybe: Counter[str] = Counter()  # per skill: record calls killed mid-call
        self.exits: Counter[tuple[str, int]] = Counter()  # (command, exit code)
        self.internal: list[str] = []  # stderr tails of exits 3 (and other unexpected codes)
        self.runs = 0

    def exit(self, command: str, code: int, stderr: str, expected: tuple[int, ...]) -> None:
        with self.lock:
            self.exits[(command, code)] += 1
            if code not in expected:
                tail = " | ".join(stderr.strip().splitlines()[-3:])
                self.internal.append(f"{command} exited {code}: {tail}")


def main() -> None:
    """Run the soak and print its figures; exit 1 if any check fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--keep", type=Path, help="work in this new folder and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        ok = soak(work, args.minutes, args.seed)
    sys.exit(0 if ok else 1)


def soak(work: Path, minutes: float, seed: int) -> bool:
    env = bench_env(work / "home")
    (work / "home").mkdir()
    served = work / "served"
    served.mkdir()
    bare = _library(work, served, env)
    daemon, port = start_daemon(served, env)
    url = f"git://127.0.0.1:{port}/{bare.name}"
    clones = {name: work / f"clone-{name}" for name in RECORDERS}
    try:
        for path in clones.values():
            timed(["git", "clone", "--quiet", url, str(path)], work, env)
            timed([*GITCURATOR, "sync"], path, env)
        tally = Tally()
        stop = threading.Event()
        threads = [
            threading.Thread(target=_recorder, args=(clones[c], env, tally, stop, seed * 100 + i))
            for c, n in RECORDERS.items()
            for i in range(n)
        ]
        threads += [
            threading.Thread(target=_chaos, args=(path, env, tally, stop, seed * 1000 + i))
            for i, path in enumerate(clones.values())
        ]
        started = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(minutes * 60)
        stop.set()
        for t in threads:
            t.join()
        busy = time.monotonic() - started
        return _check(clones, served / bare.name, env, tally, busy)
    finally:
        daemon.terminate()
        daemon.wait()


def _library(work: Path, served: Path, env: dict[str, str]) -> Path:
    library = work / "library"
    for name in RECORDED + CURATED:
        folder = library / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Use when a task needs {name}.\n---\n# {name}\n\n"
            f"Steps for {name}.\n"
        )
    timed([*GITCURATOR, "init", str(library), "--quiet"], work, env)
    for name in CURATED:
        timed([*GITCURATOR, "track", name, "--origin", "agent"], library, env)
    timed([*GITCURATOR, "flush"], library, env)
    bare = served / "library.git"
    timed(["git", "clone", "--quiet", "--bare", str(library), str(bare)], work, env)
    # Pushes into a served repository need this; git daemon refuses them otherwise.
    timed(["git", "config", "daemon.receivepack", "true"], bare, env)
    timed([*GITCURATOR, "sync", str(bare)], library, env)
    return bare


def _recorder(
    clone: Path, env: dict[str, str], tally: Tally, stop: threading.Event, seed: int
) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        name = rng.choice(RECORDED)
        kill_after = rng.uniform(0, 0.8) if rng.randrange(RECORD_KILL_ODDS) == 0 else None
        code, stderr = _call([*GITCURATOR, "record", "use", name], clone, env, kill_after)
        tally.exit("record", code, stderr, (0, -signal.SIGKILL))
        with tally.lock:
            if code == 0:
                tally.must[name] += 1
            elif code == -signal.SIGKILL:
                tally.maybe[name] += 1


def _chaos(
    clone: Path, env: dict[str, str], tally: Tally, stop: threading.Event, seed: int
) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        action = rng.choice(CHAOS_ACTIONS)
        cmd = [*GITCURATOR, action]
        if action == "run":
            with tally.lock:
                tally.runs += 1
                moment = time.gmtime(NOW0 + tally.runs * 3600)
            cmd += ["--now", time.strftime("%Y-%m-%dT%H:%M:%SZ", moment)]
        elif action == "rollback":
            run_id = _merged_run(clone, env, rng)
            if run_id is None:
                continue
            cmd.append(run_id)
        kill_after = rng.uniform(0, 3.0) if rng.randrange(CHAOS_KILL_ODDS) == 0 else None
        code, stderr = _call(cmd, clone, env, kill_after)
        # 1 is an answer, not a failure: a busy lock, nothing to merge, a remote that moved.
        tally.exit(action, code, stderr, (0, 1, -signal.SIGKILL))
        time.sleep(rng.uniform(0, 0.5))


def _merged_run(clone: Path, env: dict[str, str], rng: random.Random) -> str | None:
    done = subprocess.run(
        [*GITCURATOR, "rollback", "--list", "--json"], cwd=clone, env=env, capture_output=True
    )
    try:
        doc = json.loads(done.stdout)
    except ValueError:
        return None
    runs = doc.get("runs", doc) if isinstance(doc, dict) else doc
    ids = [r.get("run_id") or r.get("run") for r in runs if isinstance(r, dict)]
    ids = [i for i in ids if isinstance(i, str)]
    return rng.choice(ids) if ids else None


def _call(
    cmd: list[str], cwd: Path, env: dict[str, str], kill_after: float | None
) -> tuple[int, str]:
    """Run `cmd`; SIGKILL it `kill_after` seconds in if that is given and it is still going."""
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    if kill_after is not None:
        timer = threading.Timer(kill_after, _kill, args=(proc,))
        timer.start()
        _, stderr = proc.communicate()
        timer.cancel()
    else:
        _, stderr = proc.communicate()
    return proc.returncode, stderr


def _kill(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGKILL)


# -- the end ----------------------------------------------------------------------------------


def _check(
    clones: dict[str, Path], served: Path, env: dict[str, str], tally: Tally, busy: float
) -> bool:
    final: Counter[tuple[str, int]] = Counter()
    for _round in range(2):
        for path in clones.values():
            for action in ("flush", "sync"):
                done = subprocess.run(
                    [*GITCURATOR, action], cwd=path, env=env, capture_output=True, text=True
                )
                final[(action, done.returncode)] += 1
                if done.returncode != 0:
                    tally.internal.append(f"final {action} in {path.name}: {done.stderr.strip()}")
    counts = {name: _use_counts(path, env) for name, path in clones.items()}
    fsck = {name: _fsck(path, env) for name, path in {**clones, "served": served}.items()}
    locks = {name: _locks(path / ".git") for name, path in clones.items()}
    locks["served"] = _locks(served)

    must, maybe = sum(tally.must.values()), sum(tally.maybe.values())
    print(f"soak: {busy / 60:.1f} minutes, 3 clones, 8 recorders, 3 chaos loops")
    print(f"record calls: {must} returned 0 (must be present), {maybe} SIGKILLed (may be present)")
    for command in ("record", *dict.fromkeys(CHAOS_ACTIONS)):
        codes = {c: n for (cmd, c), n in sorted(tally.exits.items()) if cmd == command}
        print(f"  {command:<9} exits: " + ", ".join(f"{_code(c)}: {n}" for c, n in codes.items()))
    print("final flush/sync exits: " + ", ".join(f"{a} {c}: {n}" for (a, c), n in final.items()))
    ok = not tally.internal
    for name, found in counts.items():
        total = sum(found.get(s, 0) for s in RECORDED)
        low = [s for s in RECORDED if found.get(s, 0) < tally.must[s]]
        high = [s for s in RECORDED if found.get(s, 0) > tally.must[s] + tally.maybe[s]]
        killed_kept = total - must
        print(
            f"clone {name}: {total} uses counted = {must} must + {killed_kept} of {maybe} killed; "
            f"skills short: {low or 'none'}; over: {high or 'none'}"
        )
        ok = ok and not low and not high
    agree = len({json.dumps(c, sort_keys=True) for c in counts.values()}) == 1
    print(f"clones agree on every count: {agree}")
    for name, (code, text) in fsck.items():
        print(f"git fsck --strict {name}: exit {code}" + (f": {text}" if text else ", clean"))
    for name, (left, flocks) in locks.items():
        print(f"locks {name}: {left or 'none left'}; flock files free: {flocks}")
    ok = ok and agree
    ok = ok and all(code == 0 and not text for code, text in fsck.values())
    ok = ok and all(not left and all(flocks.values()) for left, flocks in locks.values())
    for line in tally.internal[:20]:
        print(f"UNEXPECTED {line}")
    print("soak: " + ("PASSED" if ok else "FAILED"))
    return ok


def _use_counts(clone: Path, env: dict[str, str]) -> dict[str, int]:
    _, out = timed([*GITCURATOR, "list", "--json"], clone, env)
    rows = json.loads(out[: out.rindex("]") + 1])
    return {r["name"]: r["use_count"] for r in rows if r["name"] in RECORDED}


def _fsck(path: Path, env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(
        ["git", "fsck", "--strict", "--no-progress", "--no-dangling"],
        cwd=path,
        env=env,
        capture_output=True,
        text=True,
    )
    return done.returncode, " | ".join((done.stdout + done.stderr).strip().splitlines()[:5])


def _locks(git_dir: Path) -> tuple[list[str], dict[str, bool]]:
    """Git-style `.lock` files left (paths), and whether each gitcurator flock file is free."""
    left, flocks = [], {}
    for lock in sorted(git_dir.rglob("*.lock")):
        rel = lock.relative_to(git_dir).as_posix()
        if rel.startswith("gitcurator/"):
            flocks[rel] = _free(lock)
        else:
            left.append(rel)
    return left, flocks


def _free(path: Path) -> bool:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def _code(code: int) -> str:
    return "SIGKILL" if code == -signal.SIGKILL else str(code)


if __name__ == "__main__":
    main()

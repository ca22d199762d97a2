"""Time `gitcurator sync` over git:// on loopback and count the bytes, against plain git.

Usage: python bench/bench_sync.py [--skills N] [--changed K] [--runs R] [--state DIR]

A generated library (bench/make_library.py) of N skills, each with a usage record, is served by
a real `git daemon` behind a byte-counting TCP proxy on 127.0.0.1. Two plain `git clone`s, A
and B, each run a first `gitcurator sync` (a new machine fetching every record). Then A records
uses of K skills and B of K others (half of them the same skills as A's), both flush. That
starting state is built once under --state (default /work/scratch/sync/state-N-K) and reused;
each of the R runs works on a fresh copy of it (the clones without their work trees):
  a third clone C syncs for the first time (fetch every record);
  sync A (push: the remote fast-forwards), sync B (fetch A's, merge, push a merge commit),
  sync A (fetch the merge: a fast-forward), sync A again (nothing new);
and plain git moves the same notes ref from copies of A and B against a copy of the remote:
  A: `git push`; B: `git fetch` + `git notes merge -s cat_sort_uniq` + `git push`; A: `git fetch`.
(git's notes merge joins the JSON texts line by line, which breaks them; it is here for the
cost of the transport and of writing a merge, not as an equivalent.) Each figure is one real
process, Python start-up included (with its bytecode, as an installed gitcurator has it);
bytes are what crossed the proxy, both directions. Figures are medians over the runs, and each
ratio is taken within one run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, timed
from figures import Figure, report, run_measured
from make_library import make_library

NOTES = "refs/notes/gitcurator"
SCRIPT = "bench_sync"
SYNC_STEPS = ("sync A (push)", "sync B (merge)", "sync A (fetch the merge)")
GIT_STEPS = ("git: push A's notes", "git: B fetch + notes merge + push", "git: A fetch the merge")


class CountingProxy:
    """Forward TCP connections to `target`, counting the bytes each way."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.up = self.down = 0
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def reset(self) -> int:
        """Bytes both ways since the last reset."""
        with self._lock:
            counted = self.up + self.down
            self.up = self.down = 0
        return counted

    def close(self) -> None:
        self._server.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pipe, args=(client, server, "up"), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, "down"), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, way: str) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
                with self._lock:
                    setattr(self, way, getattr(self, way) + len(data))
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_WR if s is sink else socket.SHUT_RD)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_daemon(
    served: Path, env: dict[str, str], log: Path | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """A plain `git daemon` exporting `served` (push allowed) on a free loopback port, up and
    answering (bench/soak.py's and bench/growth.py's remote; `log` keeps its --verbose lines);
    its process and port."""
    port = _free_port()
    cmd = ["git", "daemon", "--enable=receive-pack", "--export-all", "--reuseaddr"]
    cmd += ["--verbose"] if log else []
    cmd += [f"--base-path={served}", f"--port={port}", "--listen=127.0.0.1", str(served)]
    stderr = log.open("ab") if log else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.02)
    proc.terminate()
    sys.exit("git daemon did not start")


@contextlib.contextmanager
def served(folder: Path, env: dict[str, str]):  # type: ignore[no-untyped-def]
    """A `git daemon` exporting `folder` (push allowed), behind a CountingProxy."""
    proc, port = start_daemon(folder, env, log=folder.parent / "daemon.log")
    try:
        proxy = CountingProxy(port)
        try:
            yield proxy
        finally:
            proxy.close()
    finally:
        proc.terminate()
        proc.wait()


def git(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    return timed(["git", *args], cwd, env)[0]


def record_many(repo: Path, names: list[str], env: dict[str, str], at: str) -> None:
    """One `record` call per 500 names (one journal line each), then one flush."""
    for i in range(0, len(names), 500):
        timed([*GITCURATOR, "record", "use", *names[i : i + 500], "--at", at], repo, env)
    timed([*GITCURATOR, "flush"], repo, env)


def build(base: Path, skills: int, changed: int, env: dict[str, str]) -> None:
    """The starting state: a served remote with every record, clones A and B synced once and
    then each with K new uses flushed, and C, a clone that never synced."""
    print(f"building {skills} skills with a usage record each in {base} ...", flush=True)
    library = base / "library"
    names = make_library(library, skills)
    timed([*GITCURATOR, "init", str(library), "--quiet"], base, env)
    record_many(library, names, env, "2026-01-01T00:00:00Z")
    remote = base / "served" / "skills.git"
    remote.parent.mkdir()
    git(["clone", "--quiet", "--bare", str(library), str(remote)], base, env)
    git(["push", "--quiet", str(remote), NOTES], library, env)
    shutil.rmtree(library)
    with served(remote.parent, env) as proxy:
        url = f"git://127.0.0.1:{proxy.port}/skills.git"
        for clone in "abc":
            git(["clone", "--quiet", url, str(base / clone)], base, env)
        for clone in "ab":
            timed([*GITCURATOR, "sync"], base / clone, env)
    half = changed // 2
    record_many(base / "a", names[:changed], env, "2026-02-01T00:00:00Z")
    record_many(base / "b", names[half : half + changed], env, "2026-02-02T00:00:00Z")
    (base / "READY").write_text(f"{skills} {changed}\n")


def copy(src: Path, dst: Path) -> None:
    subprocess.run(["cp", "-a", str(src), str(dst)], check=True)


def copy_clone(src: Path, dst: Path) -> None:
    """A clone without its work tree: sync and git's notes moves read only .git (and the
    config file that marks a skills repository), and 10,000 skill folders copied per run
    cost more than everything measured."""
    dst.mkdir()
    for name in (".git", ".gitcurator.yaml"):
        if (src / name).exists():
            copy(src / name, dst / name)


def one_run(base: Path, run: Path, env: dict[str, str]) -> dict[str, tuple[float, int, float]]:
    """Every step on a fresh copy of the starting state: step -> (seconds, bytes, peak MB)."""
    if run.exists():
        shutil.rmtree(run)
    run.mkdir()
    copy(base / "served", run / "served")
    copy(run / "served" / "skills.git", run / "served" / "plain.git")
    for clone, copied in (("a", "a"), ("b", "b"), ("c", "c"), ("a", "git-a"), ("b", "git-b")):
        copy_clone(base / clone, run / copied)
    steps: dict[str, tuple[float, int, float]] = {}
    with served(run / "served", env) as proxy:
        url = f"git://127.0.0.1:{proxy.port}"
        for clone, remote in (("a", "skills"), ("b", "skills"), ("c", "skills")):
            git(["remote", "set-url", "origin", f"{url}/{remote}.git"], run / clone, env)
        for clone in ("git-a", "git-b"):
            git(["remote", "set-url", "origin", f"{url}/plain.git"], run / clone, env)
        proxy.reset()
        for label, clone in (
            ("first sync of a new clone C", "c"),
            (SYNC_STEPS[0], "a"),
            (SYNC_STEPS[1], "b"),
            (SYNC_STEPS[2], "a"),
            ("sync A again (nothing new)", "a"),
        ):
            print(f"  {label} ...", flush=True)
            sample = run_measured([*GITCURATOR, "sync", "--json"], run / clone, env)
            steps[label] = (sample.seconds, proxy.reset(), sample.peak_rss_mb)
            if clone == "b":
                doc = json.loads(sample.output[sample.output.index("{") :])
                if not doc["notes"]["pushed"] or doc["notes"]["merge_commit"] is None:
                    sys.exit(f"sync B did not merge and push: {doc}")
        ga, gb = run / "git-a", run / "git-b"
        t = git(["push", "--quiet", "origin", NOTES], ga, env)
        steps[GIT_STEPS[0]] = (t, proxy.reset(), 0.0)
        t = git(["fetch", "--quiet", "origin", f"{NOTES}:refs/notes/theirs"], gb, env)
        merge = ["notes", "--ref=gitcurator", "merge", "-q", "-s", "cat_sort_uniq"]
        t += git([*merge, "refs/notes/theirs"], gb, env)
        t += git(["push", "--quiet", "origin", NOTES], gb, env)
        steps[GIT_STEPS[1]] = (t, proxy.reset(), 0.0)
        t = git(["fetch", "--quiet", "origin", f"+{NOTES}:{NOTES}"], ga, env)
        steps[GIT_STEPS[2]] = (t, proxy.reset(), 0.0)
    # What we pushed must be whole and readable by git itself.
    timed(["git", "fsck", "--strict", "--no-progress"], run / "served" / "skills.git", env)
    return steps


def _run_retried(base: Path, run: Path, env: dict[str, str]) -> dict[str, tuple[float, int, float]]:
    """one_run, tried again (twice at most) when a step fails: on a machine shared with other
    test suites the git daemon has been seen to vanish mid-run (a refused connection)."""
    for attempt in range(3):
        try:
            return one_run(base, run, env)
        except SystemExit as failed:
            if attempt == 2:
                raise
            print(f"run failed ({failed}); running it again", flush=True)
    raise AssertionError("unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--changed", type=int, help="records changed on each side (default N/10)")
    parser.add_argument("--runs", type=int, default=3, help="runs to take the median of")
    parser.add_argument("--state", type=Path, metavar="DIR", help="where the start is kept")
    args = parser.parse_args()
    skills = args.skills
    changed = args.changed or max(skills // 10, 2)
    state = (args.state or Path(f"/work/scratch/sync/state-{skills}-{changed}")).resolve()
    env = bench_env(state / "home")
    # An installed gitcurator has its bytecode: compile each module once, not in every process.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(state / "pycache")
    base = state / "base"
    if not (base / "READY").exists():
        shutil.rmtree(base, ignore_errors=True)
        (state / "home").mkdir(parents=True, exist_ok=True)
        base.mkdir(parents=True)
        build(base, skills, changed, env)
    runs = [_run_retried(base, state / "run", env) for _ in range(args.runs)]
    shutil.rmtree(state / "run")

    print(f"\n{skills} skills, {changed} records changed on each side, git:// on loopback\n")
    for step in runs[0]:
        report(SCRIPT, skills, f"{step}: time", Figure([r[step][0] for r in runs]))
        report(SCRIPT, skills, f"{step}: bytes", Figure([r[step][1] for r in runs]), "B")
        if not step.startswith("git:"):
            report(SCRIPT, skills, f"{step}: peak RSS", Figure([r[step][2] for r in runs]), "MB")
    for what, index, unit in (("time", 0, "x"), ("bytes", 1, "x")):
        ratios = [
            sum(r[s][index] for s in SYNC_STEPS) / sum(r[s][index] for s in GIT_STEPS) for r in runs
        ]
        report(SCRIPT, skills, f"ratio of the three syncs to git: {what}", Figure(ratios), unit)
    peak = max(r[s][2] for r in runs for s in r)
    report(SCRIPT, skills, "peak RSS of any sync", peak, "MB")


if __name__ == "__main__":
    main()

"""Time `gitcurator sync` over git:// on loopback and count the bytes, against plain git.

Usage: python bench/bench_sync.py [--skills N] [--changed K] [--keep DIR]

A generated library (bench/make_library.py) of N skills, each with a usage record, is served by
a real `git daemon` behind a byte-counting TCP proxy on 127.0.0.1. Two plain `git clone`s, A
and B, each run a first `gitcurator sync` (a new machine fetching every record). Then A records
uses of K skills and B of K others (half of them the same skills as A's), both flush, and:
  sync A (push: the remote fast-forwards), sync B (fetch A's, merge, push a merge commit),
  sync A (fetch the merge: a fast-forward), sync A again (nothing new).
The same starting state is copied for plain git, which moves the same notes ref:
  A: `git push`; B: `git fetch` + `git notes merge -s cat_sort_uniq` + `git push`; A: `git fetch`.
(git's notes merge joins the JSON texts line by line, which breaks them; it is here for the
cost of the transport and of writing a merge, not as an equivalent.) Each figure is one real
process, Python start-up included; bytes are what crossed the proxy, both directions.
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
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from make_library import make_library

NOTES = "refs/notes/gitcurator"


class CountingProxy:
    """Forward TCP connections to `target`, counting the bytes each way."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.up = self.down = 0
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def reset(self) -> tuple[int, int]:
        with self._lock:
            counted = (self.up, self.down)
            self.up = self.down = 0
        return counted

    def _accept(self) -> None:
        while True:
            client, _ = self._server.accept()
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


def start_daemon(served: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            "git",
            "daemon",
            "--enable=receive-pack",
            "--export-all",
            "--reuseaddr",
            f"--base-path={served}",
            f"--port={port}",
            "--listen=127.0.0.1",
            str(served),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.02)
    sys.exit("git daemon did not start")


def git(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    return timed(["git", *args], cwd, env)


def record_many(repo: Path, names: list[str], env: dict[str, str], at: str) -> None:
    """One `record` call per 500 names (one journal line each), then one flush."""
    for i in range(0, len(names), 500):
        timed([*GITCURATOR, "record", "use", *names[i : i + 500], "--at", at], repo, env)
    timed([*GITCURATOR, "flush"], repo, env)


def sync(repo: Path, env: dict[str, str], proxy: CountingProxy) -> tuple[float, int, dict]:  # type: ignore[type-arg]
    proxy.reset()
    seconds, out = timed([*GITCURATOR, "sync", "--json"], repo, env)
    up, down = proxy.reset()
    return seconds, up + down, json.loads(out[out.index("{") :])


def run(work: Path, skills: int, changed: int) -> None:
    env = bench_env(work / "home")
    (work / "home").mkdir()
    library = work / "library"
    print(f"building {skills} skills with a usage record each ...", flush=True)
    names = make_library(library, skills)
    timed([*GITCURATOR, "init", str(library), "--quiet"], work, env)
    record_many(library, names, env, "2026-01-01T00:00:00Z")
    served = work / "served"
    served.mkdir()
    git(["clone", "--quiet", "--bare", str(library), str(served / "skills.git")], work, env)
    git(["push", "--quiet", str(served / "skills.git"), NOTES], library, env)
    shutil.copytree(served / "skills.git", served / "plain.git")
    daemon, port = start_daemon(served, env)
    proxy = CountingProxy(port)
    url = f"git://127.0.0.1:{proxy.port}"
    try:
        rows: list[tuple[str, float, int]] = []
        merged: dict = {}  # type: ignore[type-arg]
        a, b = work / "a", work / "b"
        for repo in (a, b):
            git(["clone", "--quiet", f"{url}/skills.git", str(repo)], work, env)
        seconds, moved, doc = sync(a, env, proxy)
        rows.append((f"gitcurator: first sync of a new clone ({skills} records)", seconds, moved))
        sync(b, env, proxy)
        record_many(a, names[:changed], env, "2026-02-01T00:00:00Z")
        half = changed // 2
        record_many(b, names[half : half + changed], env, "2026-02-02T00:00:00Z")
        # The same state for plain git: copies of both clones, pointed at a copy of the remote
        # made when it held what it holds now (the first syncs only fetched).
        ga, gb = work / "git-a", work / "git-b"
        for src, dst in ((a, ga), (b, gb)):
            shutil.copytree(src, dst, symlinks=True)
            git(["remote", "set-url", "origin", f"{url}/plain.git"], dst, env)

        for label, repo in (
            (f"gitcurator: sync A (push {changed} changed records)", a),
            (f"gitcurator: sync B ({changed} changed here and {changed} there: merge)", b),
            ("gitcurator: sync A (fetch the merge)", a),
            ("gitcurator: sync A again (nothing new)", a),
        ):
            seconds, moved, doc = sync(repo, env, proxy)
            rows.append((label, seconds, moved))
            if repo == b and "merge" in label:
                merged = doc

        proxy.reset()
        t, _ = git(["push", "--quiet", "origin", NOTES], ga, env)
        rows.append(("git: push A's notes", t, sum(proxy.reset())))
        t1, _ = git(["fetch", "--quiet", "origin", f"{NOTES}:refs/notes/theirs"], gb, env)
        fetched = sum(proxy.reset())
        t2, _ = git(
            [
                "notes",
                "--ref=gitcurator",
                "merge",
                "-q",
                "-s",
                "cat_sort_uniq",
                "refs/notes/theirs",
            ],
            gb,
            env,
        )
        t3, _ = git(["push", "--quiet", "origin", NOTES], gb, env)
        rows.append(
            ("git: B fetch + notes merge + push", t1 + t2 + t3, fetched + sum(proxy.reset()))
        )
        t, _ = git(["fetch", "--quiet", "origin", f"+{NOTES}:{NOTES}"], ga, env)
        rows.append(("git: A fetch the merge", t, sum(proxy.reset())))
    finally:
        daemon.terminate()
        daemon.wait()

    print(f"\n{skills} skills, {changed} records changed on each side, git:// on loopback\n")
    width = max(len(r[0]) for r in rows)
    print(f"{'step':<{width}}  {'seconds':>8}  {'bytes':>10}")
    for label, seconds, moved in rows:
        print(f"{label:<{width}}  {seconds:8.2f}  {moved:10,}")
    ours = sum(r[1] for r in rows[1:4])
    theirs = sum(r[1] for r in rows[5:8])
    ours_b = sum(r[2] for r in rows[1:4])
    theirs_b = sum(r[2] for r in rows[5:8])
    print(f"\nthe three syncs: {ours:.2f} s, {ours_b:,} bytes")
    print(f"plain git, same moves: {theirs:.2f} s, {theirs_b:,} bytes")
    print(f"ratio: time x{ours / theirs:.1f}, bytes x{ours_b / theirs_b:.2f}")
    updated, sent = merged["records_updated"], merged["records_sent"]
    print(f"B's merge: {updated} records updated here, {sent} sent")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000, help="library size (default 10000)")
    parser.add_argument("--changed", type=int, default=1_000, help="records changed on each side")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    with work_dir(parser, args.keep) as work:
        run(work, args.skills, args.changed)


if __name__ == "__main__":
    main()

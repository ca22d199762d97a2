"""`gitcurator sync` over real servers (git daemon, smart HTTP, ssh); races; real processes."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from wsgiref.simple_server import make_server

import pytest
from dulwich.server import FileSystemBackend
from dulwich.web import WSGIRequestHandlerLogger, WSGIServerLogger, make_wsgi_chain
from support.git_daemon import git_daemon
from support.remotes import NOTES, T1, T2, T3, clone, make_remote, record, refs, sync, usage
from support.repos import git, run_cli

from gitcurator.store import thin_pack
from gitcurator.sync import session as sync_module

# -- servers -------------------------------------------------------------------------------------


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A real `git daemon` serving tmp_path/served/ with push enabled: (folder, base URL)."""
    served = tmp_path / "served"
    served.mkdir()
    with git_daemon(served, push=True) as url:
        yield served, url


def _basic_auth(app: Callable[..., Any], user: str, password: str) -> Callable[..., Any]:
    expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def guarded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("HTTP_AUTHORIZATION") != expected:
            start_response("401 Unauthorized", [("WWW-Authenticate", 'Basic realm="git"')])
            return [b"unauthorized\n"]
        return app(environ, start_response)

    return guarded


class _Backend(FileSystemBackend):
    # dulwich's web app passes "/name.git", which FileSystemBackend joins to "/" itself.
    def open_repository(self, path: str | bytes) -> Any:
        return super().open_repository(os.fsdecode(path).lstrip("/"))


@pytest.fixture
def http(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """dulwich's own smart HTTP server on 127.0.0.1 (user `bob`, password `s3cret`)."""
    served = tmp_path / "served-http"
    served.mkdir()
    app = _basic_auth(make_wsgi_chain(_Backend(str(served))), "bob", "s3cret")
    server = make_server(
        "127.0.0.1",
        0,
        app,
        handler_class=WSGIRequestHandlerLogger,
        server_class=WSGIServerLogger,
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


# -- transports -----------------------------------------------------------------------------------


# The fetched packs stored by store.thin_pack, and (over its size limit) by dulwich.
@pytest.mark.parametrize("fast_limit", [thin_pack.FAST_LIMIT, 0])
def test_two_clones_sync_over_git_daemon(
    daemon: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast_limit: int
) -> None:
    monkeypatch.setattr(thin_pack, "FAST_LIMIT", fast_limit)
    served, base = daemon
    make_remote(tmp_path, "served/skills.git")
    a, b = (clone(f"{base}/skills.git", tmp_path / n) for n in ("a", "b"))
    record(a, "x", 37, T1)
    record(a, "y", 5, T2)
    record(b, "x", 11, T3)
    for repo in (a, b, a):
        done = sync(repo)
        assert done.code == 0, done
    for repo in (a, b):
        assert usage(repo) == {"x": (48, T3), "y": (5, T2)}
    before = refs(served / "skills.git")
    assert sync(b).code == 0 and sync(a).code == 0
    assert refs(served / "skills.git") == before
    for repo in (served / "skills.git", a, b):
        git("fsck", "--strict", "--no-dangling", cwd=repo)


def test_sync_over_smart_http_with_credentials_in_the_url(
    http: tuple[Path, str], tmp_path: Path
) -> None:
    served, base = http
    make_remote(tmp_path, "served-http/skills.git")
    url = base.replace("http://", "http://bob:s3cret@") + "/skills.git"
    a, b = clone(url, tmp_path / "a"), clone(url, tmp_path / "b")
    record(a, "x", 2, T1)
    record(b, "x", 3, T2)
    for repo in (a, b, a):
        done = sync(repo)
        assert done.code == 0, done
        assert "s3cret" not in done.out + done.err
    assert usage(a) == usage(b) == {"x": (5, T2)}
    assert (
        git("rev-parse", NOTES, cwd=served / "skills.git").stdout
        == git("rev-parse", NOTES, cwd=a).stdout
    )


def test_bad_http_credentials_exit_1_naming_the_remote_and_change_nothing(
    http: tuple[Path, str], tmp_path: Path
) -> None:
    _served, base = http
    make_remote(tmp_path, "served-http/skills.git")
    good = base.replace("http://", "http://bob:s3cret@") + "/skills.git"
    a = clone(good, tmp_path / "a")
    bad = base.replace("http://", "http://bob:wrong@") + "/skills.git"
    git("remote", "set-url", "origin", bad, cwd=a)
    record(a, "x", 2, T1)
    before = refs(a)
    done = sync(a)
    assert done.code == 1
    assert "cannot fetch from remote origin (http://bob:***@127.0.0.1:" in done.err
    assert "refused the credentials (HTTP 401)" in done.err
    assert "wrong" not in done.err
    assert refs(a) == before and usage(a) == {"x": (2, T1)}


def test_credentials_from_git_credentials_file(http: tuple[Path, str], tmp_path: Path) -> None:
    served, base = http
    make_remote(tmp_path, "served-http/skills.git")
    (Path(os.environ["HOME"]) / ".git-credentials").write_text(
        base.replace("http://", "http://bob:s3cret@") + "\n"
    )
    a = clone(base.replace("http://", "http://bob:s3cret@") + "/skills.git", tmp_path / "a")
    git("remote", "set-url", "origin", f"{base}/skills.git", cwd=a)
    record(a, "x", 1, T1)
    done = sync(a)
    assert done.code == 0, done
    assert NOTES in refs(served / "skills.git")


def test_sync_over_ssh_with_the_configured_ssh_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No sshd here: a stand-in `ssh` runs the command it is given locally, as sshd would.
    fake = tmp_path / "fake-ssh"
    fake.write_text('#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(fake))
    remote = make_remote(tmp_path)
    a, b = clone(remote, tmp_path / "a"), clone(remote, tmp_path / "b")
    for repo in (a, b):
        git("remote", "set-url", "origin", f"ssh://skills.example{remote}", cwd=repo)
    record(a, "x", 2, T1)
    assert sync(a).code == 0
    done = sync(b)
    assert done.code == 0, done
    assert usage(b) == {"x": (2, T1)}


# -- a remote that moves during the sync ---------------------------------------------------------

# Runs inside git's receive-pack after our pack arrived and before our ref update: it moves the
# notes ref, exactly as another machine's push landing in that instant would. (The quarantine
# variables are dropped so the hook may write objects and refs.)
MOVE_NOTES_HOOK = """#!/bin/sh
unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
[ -e "$PWD/moves-left" ] || exit 0
left=$(cat "$PWD/moves-left")
[ "$left" -gt 0 ] || exit 0
echo $((left - 1)) > "$PWD/moves-left"
ref=refs/notes/gitcurator
cur=$(git rev-parse -q --verify $ref) || exit 0
new=$(git commit-tree -p "$cur" -m "another machine" "$cur^{tree}")
git update-ref $ref "$new" "$cur"
"""


@pytest.fixture
def moving(daemon: tuple[Path, str], tmp_path: Path) -> tuple[Path, Path, Path]:
    """A remote whose notes ref another machine moves during our pushes: (bare, A, B)."""
    _served, base = daemon
    bare = make_remote(tmp_path, "served/skills.git")
    a, b = (clone(f"{base}/skills.git", tmp_path / n) for n in ("a", "b"))
    record(b, "y", 1, T1)
    assert sync(b).code == 0
    hook = bare / "hooks" / "pre-receive"
    hook.write_text(MOVE_NOTES_HOOK)
    hook.chmod(0o755)
    return bare, a, b


def test_a_remote_that_moved_once_is_fetched_merged_and_pushed_again(
    moving: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    bare, a, _ = moving
    monkeypatch.setattr(sync_module.random, "uniform", lambda lo, hi: 0.0)
    (bare / "moves-left").write_text("1\n")
    record(a, "x", 3, T2)
    done = run_cli("sync", "--json", "-C", str(a))
    assert done.code == 0, done
    result = json.loads(done.out)
    assert result["tries"] == 2 and result["notes"]["pushed"] is True
    assert git("log", "-1", "--format=%s", f"{NOTES}^2", cwd=bare).stdout == "another machine\n"
    assert usage(a) == {"x": (3, T2), "y": (1, T1)}


def test_a_push_the_remote_refuses_for_good_says_why_at_once(
    daemon: tuple[Path, str], tmp_path: Path
) -> None:
    _served, base = daemon
    bare = make_remote(tmp_path, "served/skills.git")
    a = clone(f"{base}/skills.git", tmp_path / "a")
    hook = bare / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'notes are frozen here' >&2\nexit 1\n")
    hook.chmod(0o755)
    record(a, "x", 1, T1)
    done = run_cli("sync", "-C", str(a))
    assert done.code == 1
    assert "refused refs/notes/gitcurator" in done.err, done
    assert "kept moving" not in done.err
    assert usage(a) == {"x": (1, T1)}


def test_a_remote_that_keeps_moving_gives_up_with_exit_1_and_loses_nothing(
    moving: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    bare, a, _ = moving
    monkeypatch.setattr(sync_module.random, "uniform", lambda lo, hi: 0.0)
    (bare / "moves-left").write_text("100\n")
    record(a, "x", 3, T2)
    done = run_cli("sync", "-C", str(a))
    assert done.code == 1
    assert "kept moving: the push of the notes was refused on each of 5 tries" in done.err
    assert "git://127.0.0.1:" in done.err
    assert (bare / "moves-left").read_text().strip() == "95"
    assert usage(a) == {"x": (3, T2), "y": (1, T1)}  # merged locally, nothing lost
    (bare / "moves-left").write_text("0\n")
    assert run_cli("sync", "-C", str(a)).code == 0
    fresh = clone(bare, a.parent / "c")
    assert sync(fresh).code == 0
    assert usage(fresh) == {"x": (3, T2), "y": (1, T1)}


# -- real processes at once ------------------------------------------------------------------------

WORKER = """
import sys
from gitcurator.telemetry import recording
from gitcurator.cli import main
repo, rounds, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
names = ["x", "y", "z"]
done = 0
for i in range(rounds):
    for j in range(1 + (seed + i) % 4):
        recording.record("use", [names[(seed + i + j) % 3]], repo=repo)
        done += 1
    code = main(["sync", "-C", repo])
    if code not in (0, 1):  # 1: the remote kept moving; the next round retries
        raise SystemExit(code)
print(done)
"""


def test_three_clones_syncing_at_once_end_with_the_exact_total(
    daemon: tuple[Path, str], tmp_path: Path
) -> None:
    _served, base = daemon
    make_remote(tmp_path, "served/skills.git")
    clones = [clone(f"{base}/skills.git", tmp_path / f"c{i}") for i in range(3)]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(c), "6", str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, c in enumerate(clones)
    ]
    recorded = 0
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert "Traceback" not in err, err
        recorded += int(out.strip().splitlines()[-1])
    for _ in range(2):  # settle: everyone syncs once more, in turn
        for c in clones:
            done = sync(c)
            assert done.code == 0, done
    totals = [sum(n for n, _ in usage(c).values()) for c in clones]
    assert totals == [recorded] * 3
    tips = {git("rev-parse", NOTES, cwd=c).stdout for c in clones}
    assert len(tips) == 1


def test_two_syncs_of_one_clone_at_once_are_serialised_by_the_notes_lock(
    daemon: tuple[Path, str], tmp_path: Path
) -> None:
    _served, base = daemon
    make_remote(tmp_path, "served/skills.git")
    a, b = (clone(f"{base}/skills.git", tmp_path / n) for n in ("a", "b"))
    record(b, "y", 4, T1)
    assert sync(b).code == 0
    record(a, "x", 5, T2)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "gitcurator", "sync", "-C", str(a)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    assert usage(a) == {"x": (5, T2), "y": (4, T1)}
    assert sync(b).code == 0
    assert usage(b) == usage(a)

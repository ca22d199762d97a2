"""A real `git daemon` on 127.0.0.1 serving the repositories under a folder."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def git_daemon(served: Path, push: bool = False) -> Iterator[str]:
    """`git daemon` exporting every repository under `served` (push enabled with `push`):
    its base URL, git://127.0.0.1:PORT."""
    port = free_port()
    proc = subprocess.Popen(
        [
            "git",
            "daemon",
            *(["--enable=receive-pack"] if push else []),
            "--export-all",
            "--informative-errors",
            "--reuseaddr",
            f"--base-path={served}",
            f"--port={port}",
            "--listen=127.0.0.1",
            str(served),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, "git daemon exited"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                assert time.monotonic() < deadline, f"nothing listens on port {port}"
                time.sleep(0.02)
        yield f"git://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextlib.contextmanager
def http_git_server(served: Path) -> Iterator[str]:
    """dulwich's smart HTTP server on 127.0.0.1 serving the repositories under `served`
    (read-only, no auth): its base URL."""
    import os
    import threading
    from typing import Any
    from wsgiref.simple_server import make_server

    from dulwich.server import FileSystemBackend
    from dulwich.web import WSGIRequestHandlerLogger, WSGIServerLogger, make_wsgi_chain

    class Backend(FileSystemBackend):
        # dulwich's web app passes "/name.git", which FileSystemBackend joins to "/" itself.
        def open_repository(self, path: str | bytes) -> Any:
            return super().open_repository(os.fsdecode(path).lstrip("/"))

    server = make_server(
        "127.0.0.1",
        0,
        make_wsgi_chain(Backend(str(served))),
        handler_class=WSGIRequestHandlerLogger,
        server_class=WSGIServerLogger,
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()

"""Loopback servers that never finish answering, for deadline tests.

- `SilentServer`: accepts TCP connections and never says a word (a git:// daemon or an HTTP
  server that hangs).
- `DripServer`: an HTTP server that reads the request, sends 200 and its headers at once,
  then the body one byte every `interval` seconds (a stalled model that keeps a per-read
  timeout happy for ever).

Both listen on 127.0.0.1 (a free port) in daemon threads; use them as context managers.
Standard library only.
"""

from __future__ import annotations

import socket
import threading
from typing import Any

__all__ = ["DripServer", "SilentServer"]

_BODY = b'{"id": "chatcmpl-drip", "object": "chat.completion", "choices": [' + b" " * 100_000


class _Listener:
    """Accepts connections in a thread and hands each to `serve` in a thread of its own."""

    def __init__(self) -> None:
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.1)
        self._stop = threading.Event()
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self.connections = 0  # how many were accepted

    @property
    def port(self) -> int:
        return int(self._sock.getsockname()[1])

    def __enter__(self) -> Any:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        with self._lock:
            for conn in self._conns:
                conn.close()
        self._sock.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self._conns.append(conn)
                self.connections += 1
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn: socket.socket) -> None:
        """What the server does with one connection."""
        self._stop.wait()


class SilentServer(_Listener):
    """Accepts and never answers."""

    def url(self, scheme: str, path: str = "/remote.git") -> str:
        """A URL of this server, as git:// or http:// (anything dulwich speaks over TCP)."""
        return f"{scheme}://127.0.0.1:{self.port}{path}"


class DripServer(_Listener):
    """Headers at once, then a byte every `interval` seconds until the client gives up."""

    def __init__(self, interval: float = 1.0) -> None:
        super().__init__()
        self.interval = interval

    @property
    def base_url(self) -> str:
        """What to put in llm.base_url."""
        return f"http://127.0.0.1:{self.port}/v1"

    def serve(self, conn: socket.socket) -> None:
        conn.settimeout(5)
        try:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            while len(body) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                body += chunk
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(_BODY)}\r\n\r\n".encode()
            )
            for byte in _BODY:
                if self._stop.wait(self.interval):
                    return
                conn.sendall(bytes([byte]))
        except OSError:
            return  # the client hung up: what a deadline does

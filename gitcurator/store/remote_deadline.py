"""How long a git remote may stay silent: $GITCURATOR_REMOTE_TIMEOUT, applied to every
transport dulwich speaks.

- git:// opens plain sockets: a default socket timeout bounds its connect and every read.
- http(s):// goes through urllib3, whose pool would retry a read that timed out three more
  times (a silent server took 121 s against 30): the pool is built here with that timeout and
  no retry of connects or reads.
- ssh runs a process and reads its pipe, which no socket timeout reaches: the vendor here waits
  for each read with select() and kills the process when the remote says nothing in time.
- a path or file:// is the local disk: nothing to bound.
A transfer that keeps moving is never cut off: the timeout is for silence, not for size.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import socket
import subprocess
from collections.abc import Iterator, Mapping
from typing import Any

from dulwich import client as dulwich_client

from gitcurator.errors import ConfigError

ENV = "GITCURATOR_REMOTE_TIMEOUT"
DEFAULT_TIMEOUT = 30.0
# The longest silence accepted: socket timeouts and select() overflow the platform's time_t
# somewhere above 1e9 s (an internal error, exit 3, for bad input); a day is already forever.
MAX_TIMEOUT = 86400.0


def remote_timeout(env: Mapping[str, str] | None = None) -> float:
    """$GITCURATOR_REMOTE_TIMEOUT seconds (DEFAULT_TIMEOUT when unset); ConfigError naming
    the variable for a value that is not a positive number up to MAX_TIMEOUT."""
    raw = (os.environ if env is None else env).get(ENV)
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT
    try:
        value = float(raw.strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT:
        raise ConfigError(
            f"{ENV} is {raw!r}; it must be a positive number of seconds up to "
            f"{MAX_TIMEOUT:g} (how long a remote may stay silent), e.g. {ENV}=30, or unset "
            f"for {DEFAULT_TIMEOUT:g}"
        )
    return value


@contextlib.contextmanager
def socket_timeout(seconds: float) -> Iterator[None]:
    """New sockets (dulwich's git:// client opens them without a timeout) time out."""
    old = socket.getdefaulttimeout()
    socket.setdefaulttimeout(seconds)
    try:
        yield
    finally:
        socket.setdefaulttimeout(old)


def http_pool(config: Any, url: str, seconds: float) -> Any:
    """A urllib3 pool for `url` as dulwich builds it (proxy, TLS, headers from the git
    config), whose connects and reads time out after `seconds` and are not retried."""
    import urllib3

    pool = dulwich_client.default_urllib3_manager(config, base_url=url, timeout=seconds)
    # Redirects are still followed; a timed-out or refused request is not sent again.
    pool.connection_pool_kw["retries"] = urllib3.util.Retry(
        total=10, connect=0, read=0, status=0, other=0, redirect=5
    )
    return pool


class SilenceBoundSSHVendor(dulwich_client.SubprocessSSHVendor):
    """The plain `ssh` subprocess vendor, but a read that waits longer than `seconds` kills
    the process and raises TimeoutError."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def run_command(self, *args: Any, **kwargs: Any) -> Any:
        """Start ssh as dulwich does, with every read of its output bounded."""
        wrapper = super().run_command(*args, **kwargs)
        wrapper.read = _BoundedPipe(wrapper.proc, self.seconds, wrapper.read).read
        return wrapper


class _BoundedPipe:
    """Reads of a process's output, each waiting at most `seconds` for the first byte."""

    def __init__(self, proc: subprocess.Popen[bytes], seconds: float, buffered: Any) -> None:
        assert proc.stdout is not None  # dulwich opens it as a pipe
        self.proc = proc
        self.fd = proc.stdout.fileno()
        self.seconds = seconds
        # dulwich's buffered reader, kept though never used: dropping it closes the pipe.
        self._buffered = buffered

    def read(self, size: int | None = -1) -> bytes:
        """Up to `size` bytes (all, to the end, when negative); unbuffered on purpose, since
        a buffer would hide bytes from select()."""
        size = -1 if size is None else size
        chunks: list[bytes] = []
        got = 0
        while size < 0 or got < size:
            ready, _, _ = select.select([self.fd], [], [], self.seconds)
            if not ready:
                self.proc.kill()
                raise TimeoutError(f"the ssh remote said nothing for {self.seconds:g} s")
            chunk = os.read(self.fd, 65536 if size < 0 else size - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)


def timed_out(exc: BaseException) -> bool:
    """Is `exc` (or what caused it) a timeout of the transport?"""
    seen: BaseException | None = exc
    for _ in range(10):
        if seen is None:
            return False
        if isinstance(seen, TimeoutError) or "timed out" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False

"""A push's writes gathered into large ones (store.transport pushes through it).

dulwich writes a pack unbuffered, three writes per object: 6,000 system calls, and as many
segments for the other side to take, for a push of 2,000 objects.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

# A pack goes out in writes of about this size, as git's own do (LARGE_PACKET_MAX).
_WRITE_BUFFER = 64 * 1024


@contextlib.contextmanager
def buffered_writes(client: Any) -> Iterator[None]:
    """While pushing, the connection's writes gathered into large ones: dulwich writes a pack
    three times per object, unbuffered (6,000 system calls, and as many segments for the
    other side to take, for a push of 2,000 objects). What was gathered goes out before any
    read, half-close or close, so the conversation is unchanged. Only for the clients that
    talk over one stream of their own (git://, ssh, a local `git` process); smart HTTP sends
    its request body whole already."""
    connect = getattr(client, "_connect", None)
    if connect is None:
        yield
        return

    def buffered(*args: Any, **kwargs: Any) -> Any:
        proto, can_read, stderr = connect(*args, **kwargs)
        _buffer_protocol(proto)
        return proto, can_read, stderr

    client._connect = buffered
    try:
        yield
    finally:
        del client._connect


def _buffer_protocol(proto: Any) -> None:
    """Gather `proto`'s writes until _WRITE_BUFFER bytes, or until it reads or closes."""
    write, read = proto.write, proto.read
    gathered: list[bytes] = []
    size = 0

    def send() -> None:
        nonlocal size
        if not gathered:
            return
        data = memoryview(b"".join(gathered))
        gathered.clear()
        size = 0
        # A socket with a timeout takes a large write only in part when its send buffer is
        # nearly full (a slow link or reader) and says how much: the rest is written again,
        # or the remote would read a pack with holes. None: a writer that takes it all.
        while data:
            taken = write(data)
            if taken is None:
                return
            data = data[taken:]

    def gather(data: bytes) -> None:
        nonlocal size
        gathered.append(bytes(data))
        size += len(data)
        if size >= _WRITE_BUFFER:
            send()

    def read_after_sending(n: int) -> bytes:
        send()
        data: bytes = read(n)
        return data

    def after_sending(then: Callable[[], None] | None, closing: bool) -> Callable[[], None] | None:
        if then is None:
            return None

        def call() -> None:
            # A close also ends a failed push: its failure is the one to report, not this.
            with contextlib.suppress(OSError) if closing else contextlib.nullcontext():
                send()
            then()

        return call

    proto.write, proto.read = gather, read_after_sending
    proto._shutdown_write = after_sending(proto._shutdown_write, closing=False)
    proto._close = after_sending(proto._close, closing=True)

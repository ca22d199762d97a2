"""A big pack's objects compressed on two cores: a forked child compresses every other object
the pack writer (store/pack_writer) has not had handed over compressed, and hands the
streams back over a pipe. Compression is most of a big pack's cost (~10 us an object, the
40,000 of a 10,000-skill `init` 0.6 s).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from gitcurator import forked

if TYPE_CHECKING:
    from gitcurator.store.pack_writer import RawObject

# Below this many objects to compress a second compressor costs more than it saves (a fork
# of a big process costs ~10-30 ms).
_SHARED_ABOVE = 5000


_Stream = bytes | memoryview  # a zlib stream, or a view of one in what a child handed back


def compressed_in_two(
    objects: list[RawObject], deflated: Mapping[bytes, bytes]
) -> dict[bytes, _Stream]:
    """`deflated` with half of the objects it lacks compressed by a forked child, when they
    are many and another core may take them (else `deflated` as it is: the rest are
    compressed as the pack is written)."""
    done: dict[bytes, _Stream] = dict(deflated)
    todo = [(sha, raw) for _type, sha, raw in objects if sha not in done]
    if len(todo) < _SHARED_ABOVE or not forked.another_core():
        return done
    # Every other object, so both halves hold as many of each kind (trees cost half a blob).
    theirs = todo[::2]
    child = forked.start(lambda: _streams([raw for _sha, raw in theirs]))
    try:
        for sha, raw in todo[1::2]:
            done[sha] = zlib.compress(raw, 1)
        data = child.result()
    except BaseException:
        child.stop()
        raise
    streams = _split(data, len(theirs)) if data is not None else None
    if streams is not None:  # else the writer compresses the child's share itself
        done.update(zip([sha for sha, _raw in theirs], streams, strict=True))
    return done


def _streams(raws: list[bytes]) -> bytes:
    """`raws` compressed, as the child hands them back: their lengths, then the streams."""
    streams = [zlib.compress(raw, 1) for raw in raws]
    return struct.pack(f">{len(streams)}L", *map(len, streams)) + b"".join(streams)


def _split(data: bytes, count: int) -> list[memoryview] | None:
    """Views of the `count` streams _streams joined (None if `data` does not hold them)."""
    if len(data) < 4 * count:
        return None
    lengths = struct.unpack_from(f">{count}L", data)
    if 4 * count + sum(lengths) != len(data):
        return None
    view = memoryview(data)
    out = []
    at = 4 * count
    for length in lengths:
        out.append(view[at : at + length])
        at += length
    return out

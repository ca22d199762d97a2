"""What reading a damaged object store raises: a pack or loose file whose bytes changed on
disk or in a copy (zlib's own checksum fails, a delta no longer applies, an object no longer
hashes to its name). The repository's state, not a bug of ours: the error handler says so
and exits 1, where it wrote a crash log and exited 3 for every command."""

from __future__ import annotations

import zlib

from dulwich.errors import ApplyDeltaError, ChecksumMismatch

DAMAGED_STORE: tuple[type[Exception], ...] = (zlib.error, ApplyDeltaError, ChecksumMismatch)

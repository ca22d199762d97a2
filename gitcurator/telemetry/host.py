"""This clone's host id: the key of its counters in every usage record (hot path, stdlib only)."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from gitcurator.statefiles import HOST_FILE, ensure_folder, open_regular, temporary_path
from gitcurator.telemetry.events import HOST_ID


def host_id(state: Path) -> str:
    """This clone's host id, chosen once (hostname plus random suffix) and kept in .git/."""
    path = state / HOST_FILE
    # A damaged id file (not UTF-8, not an id) is replaced below, never a reason to fail.
    with contextlib.suppress(FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
        value = path.read_text(encoding="utf-8").strip()
        if HOST_ID.fullmatch(value):
            return value
    import secrets
    import socket

    base = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname())[:48] or "host"
    value = f"{base}-{secrets.token_hex(3)}"
    ensure_folder(state)
    tmp = temporary_path(path)
    fd = open_regular(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write((value + "\n").encode("utf-8"))
        # link() fails if another process chose first; theirs wins and both agree.
        os.link(tmp, path)
    except FileExistsError:
        existing = path.read_bytes().decode("utf-8", "replace").strip()
        if HOST_ID.fullmatch(existing):
            value = existing
        else:
            os.replace(tmp, path)  # a damaged id file: replace it, never keep using it
    finally:
        tmp.unlink(missing_ok=True)
    return value

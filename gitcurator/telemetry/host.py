"""This clone's host id: the key of its counters in every usage record (hot path, stdlib only)."""

from __future__ import annotations

import os

from gitcurator.statefiles import HOST_FILE, ensure_folder, open_regular, temporary_path
from gitcurator.telemetry.events import is_host_id


def host_id(state: str | os.PathLike[str]) -> str:
    """This clone's host id, chosen once (hostname plus random suffix) and kept in .git/."""
    # A damaged id file (not UTF-8, not an id) is replaced below, never a reason to fail.
    try:
        with open(os.path.join(state, HOST_FILE), encoding="utf-8") as file:
            value = file.read().strip()
    except (FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
        pass
    else:
        if is_host_id(value):
            return value
    return _choose(state)


def _choose(folder: str | os.PathLike[str]) -> str:
    """Choose this clone's id and keep it, unless another process chose first."""
    import re
    import secrets
    import socket
    from pathlib import Path

    state = Path(folder)
    path = state / HOST_FILE
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
        if is_host_id(existing):
            value = existing
        else:
            os.replace(tmp, path)  # a damaged id file: replace it, never keep using it
    finally:
        tmp.unlink(missing_ok=True)
    return value

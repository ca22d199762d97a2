"""A state folder that refuses every open, as a read-only one does (even to root, whom chmod
does not stop)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def refuse_opening_in(monkeypatch: pytest.MonkeyPatch, folder: Path, below: bool = False) -> None:
    """Make os.open of any file directly in `folder` (with `below`, anywhere under it) fail
    with EACCES."""
    real_open = os.open

    def refusing(path: str | bytes | os.PathLike[str], *args: object, **kwargs: object) -> int:
        opened = Path(os.fsdecode(path))  # dulwich opens its lock files by bytes paths
        if opened.parent == folder or (below and opened.is_relative_to(folder)):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refusing)

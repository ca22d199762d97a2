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

    def refusing(path: str | os.PathLike[str], *args: object, **kwargs: object) -> int:
        if Path(path).parent == folder or (below and Path(path).is_relative_to(folder)):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refusing)

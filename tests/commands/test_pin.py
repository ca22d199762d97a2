"""`gitcurator pin` and `unpin`: a skill kept from the curator, and handed back."""

from __future__ import annotations

from pathlib import Path

from support.passes import show

from gitcurator.commands.pin import pin, unpin


def test_pin_then_unpin(repo: Path) -> None:
    assert pin(repo, "pdf-extract").text == "pin: pdf-extract"
    assert pin(repo, "pdf-extract").text == "already so: pdf-extract"
    assert show(repo, "pdf-extract")["pinned"] is True
    assert unpin(repo, "pdf-extract").text == "unpin: pdf-extract"
    assert show(repo, "pdf-extract")["pinned"] is False

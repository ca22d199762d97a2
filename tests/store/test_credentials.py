"""store.credentials: HTTP credentials from git's credential-store files."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcurator.store.credentials import stored_credentials


def test_a_malformed_credentials_line_is_skipped_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home2"
    home.mkdir()
    (home / ".git-credentials").write_text(
        "https://u:p@example.com:notaport\nhttps://bob:pw@example.com\n"
    )
    monkeypatch.setenv("HOME", str(home))
    assert stored_credentials("https://example.com/repo.git") == ("bob", "pw")

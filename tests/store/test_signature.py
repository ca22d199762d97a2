"""store.signature: the identity and dates a command's commits carry."""

from __future__ import annotations

import pytest

from gitcurator.errors import UsageError
from gitcurator.store import signature
from gitcurator.store.signature import Identity, Signature

ME = Identity("Ada", "ada@example.com")


def test_an_identity_is_written_as_git_writes_it() -> None:
    assert ME.as_bytes() == b"Ada <ada@example.com>"


@pytest.mark.parametrize(
    ("date", "seconds"),
    [
        ("@1767225600 +0000", 1767225600),
        ("1767225600", 1767225600),
        ("2026-01-01T00:00:00Z", 1767225600),
        ("2026-01-01T01:00:00+01:00", 1767225600),
        ("  2026-01-01  ", 1767225600),
    ],
)
def test_git_date_variables_are_read_as_git_reads_them(date: str, seconds: int) -> None:
    assert Signature(ME, date, date).times() == (seconds, seconds)


def test_without_dates_each_commit_takes_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signature.time, "time", lambda: 1767225600.7)
    assert Signature(ME).times() == (1767225600, 1767225600)
    assert Signature(ME, author_date="@5").times() == (5, 1767225600)


def test_a_bad_date_fails_when_a_commit_is_made_and_names_the_variable() -> None:
    made = Signature(ME, committer_date="yesterday")  # no error yet: reading commands work
    with pytest.raises(UsageError, match="GIT_COMMITTER_DATE 'yesterday'"):
        made.times()

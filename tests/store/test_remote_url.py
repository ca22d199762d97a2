"""store.remote_url: what is wrong with a remote's URL or path, said before connecting."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcurator.store.remote_url import RemoteError, check_location

WHAT = "the remote URL"


@pytest.mark.parametrize(
    ("location", "words"),
    [
        ("http://[::1", "is not a valid URL (Invalid IPv6 URL)"),
        ("https://[::1/skills.git", "is not a valid URL"),
        ("http://example.com:99999/x.git", "is not a valid URL"),
        ("http://example.com:abc/x.git", "is not a valid URL"),
        ("ftp://example.com/skills.git", "uses ftp://, which is not a git transport"),
        ("rsync://example.com/skills.git", "uses rsync://"),
        ("https:///skills.git", "has no host name"),
        ("git://:9418/skills.git", "has no host name"),
        ("file:///no/such/place.git", "no such folder: /no/such/place.git"),
        ("/no/such/place.git", "no such folder: /no/such/place.git"),
    ],
)
def test_a_location_that_cannot_be_a_remote_says_what_is_wrong(location: str, words: str) -> None:
    with pytest.raises(RemoteError) as caught:
        check_location(location, WHAT)
    assert words in str(caught.value)
    assert caught.value.exit_code == 1


@pytest.mark.parametrize(
    "location",
    [
        "https://example.com/skills.git",
        "HTTP://example.com/skills.git",
        "http://[::1]:8080/skills.git",
        "git://127.0.0.1/skills.git",
        "ssh://git@example.com/skills.git",
        "git+ssh://example.com/skills.git",
        "git@github.com:me/skills.git",
    ],
)
def test_locations_git_speaks_pass(location: str) -> None:
    check_location(location, WHAT)


def test_an_existing_folder_passes_by_path_and_by_file_url(tmp_path: Path) -> None:
    check_location(str(tmp_path), WHAT)
    check_location(tmp_path.as_uri(), WHAT)

from __future__ import annotations

from pathlib import Path

import pytest

from gitcurator.curation import token_counter as tc
from gitcurator.lifecycle.catalogue_cost import ESTIMATE, estimate_tokens


def test_without_a_cached_encoding_the_estimate_answers_and_no_fetch_happens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("GITCURATOR_TOKENIZER")  # conftest forces the estimate everywhere else
    tc.token_counter.cache_clear()
    try:
        count, name = tc.token_counter()
        assert name == ESTIMATE
        assert count("hello world") == estimate_tokens("hello world")
    finally:
        tc.token_counter.cache_clear()


def test_the_estimate_can_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITCURATOR_TOKENIZER", ESTIMATE)
    tc.token_counter.cache_clear()
    try:
        assert tc.token_counter()[1] == ESTIMATE
    finally:
        tc.token_counter.cache_clear()


@pytest.mark.parametrize("junk", [b"", b"not a bpe file\n", b"x" * 4096])
def test_a_corrupt_cached_encoding_means_the_estimate_and_is_neither_deleted_nor_fetched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, junk: bytes
) -> None:
    # tiktoken deletes a cached file whose hash is wrong and downloads it again: on a closed
    # network a status could wait minutes, and the user's file was gone.
    import hashlib

    import tiktoken.load

    fetched: list[str] = []
    monkeypatch.setattr(tiktoken.load, "read_file", lambda url: fetched.append(url) or b"")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("GITCURATOR_TOKENIZER")
    cached = tmp_path / hashlib.sha1(tc._ENCODING_URL.encode()).hexdigest()
    cached.write_bytes(junk)
    tc.token_counter.cache_clear()
    try:
        count, name = tc.token_counter()
        assert name == ESTIMATE and count("hello world") == estimate_tokens("hello world")
    finally:
        tc.token_counter.cache_clear()
    assert fetched == [] and cached.read_bytes() == junk


def test_an_empty_cache_dir_which_tiktoken_reads_as_no_cache_means_the_estimate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib

    import tiktoken.load

    fetched: list[str] = []
    monkeypatch.setattr(tiktoken.load, "read_file", lambda url: fetched.append(url) or b"")
    monkeypatch.chdir(tmp_path)  # "" once meant the current folder here, never to tiktoken
    (tmp_path / hashlib.sha1(tc._ENCODING_URL.encode()).hexdigest()).write_bytes(b"x")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    monkeypatch.delenv("GITCURATOR_TOKENIZER")
    tc.token_counter.cache_clear()
    try:
        assert tc.token_counter()[1] == ESTIMATE
    finally:
        tc.token_counter.cache_clear()
    assert fetched == []

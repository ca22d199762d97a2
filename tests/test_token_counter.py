from __future__ import annotations

from pathlib import Path

import pytest

from gitcurator import token_counter as tc
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

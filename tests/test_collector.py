"""The cyclic collector is paused around a pass that asks no model and a listing (blocks
that build much and touch no network), and is on again after them, even when they fail."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gitcurator.collector import paused
from gitcurator.errors import CuratorError

NOW = "2026-06-01T00:00:00Z"


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_turns_the_collector_off_and_back_on_even_after_an_error() -> None:
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(CuratorError), paused():
        raise CuratorError("failed")
    assert gc.isenabled()


def test_paused_leaves_it_as_it_was_when_off_already_or_not_wanted() -> None:
    with paused(when=False):
        assert gc.isenabled()
    gc.disable()
    with paused():
        assert not gc.isenabled()
    assert not gc.isenabled()  # not turned on by the block: it was off before


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[bool]:
    """Record whether the collector is on whenever module.name is called."""
    seen: list[bool] = []
    real = getattr(module, name)

    def spied(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spied)
    return seen


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_pass_without_a_model_loads_and_plans_with_the_collector_paused(
    agent_repo: Path, monkeypatch: pytest.MonkeyPatch, dry_run: bool
) -> None:
    from gitcurator.commands import run

    loads = _spy(monkeypatch, run, "load_pass")
    plans = _spy(monkeypatch, run, "plan_pass")
    result = run.run(agent_repo, now=NOW, dry_run=dry_run, consolidate=False)
    assert result.code == 0
    assert (loads, plans) == ([False], [False])
    assert gc.isenabled()


def test_a_listing_loads_with_the_collector_paused(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitcurator.commands import list as list_command
    from gitcurator.commands import skill_rows

    loads = _spy(monkeypatch, skill_rows, "load_kept_rows")
    result = list_command.list_skills(repo, state=None, origin=None, now=NOW, as_json=True)
    assert result.code == 0
    assert loads == [False]
    assert gc.isenabled()

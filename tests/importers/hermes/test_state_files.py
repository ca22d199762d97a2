"""hermes/state_files.py: which entries are Hermes' state; the .gitignore that keeps them out."""

from __future__ import annotations

import pytest

from gitcurator.importers.hermes import state_files


@pytest.mark.parametrize(
    ("name", "state"),
    [
        (".usage.json", True),
        (".hub", True),
        (".curator_state", True),
        (".some_future_file", True),
        (".archive", False),
        (".git", False),
        (".gitignore", False),
        (".gitcurator.yaml", False),
        (".curator", False),
        ("devops", False),
    ],
)
def test_state_entries(name: str, state: bool) -> None:
    assert state_files.is_state_entry(name) is state


def test_ignore_patterns_add_unknown_state_escaped() -> None:
    patterns = state_files.ignore_patterns([".usage_x1.tmp", ".odd*name", ".hub"])
    assert "/.usage.json" in patterns and "/.hub" in patterns and "/.usage_*.tmp" in patterns
    assert patterns[-1] == "/.odd\\*name"
    assert len(patterns) == len(state_files.KNOWN_STATE) + 1


@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        (None, f"{state_files.IGNORE_HEADER}\n/.a\n/.b\n"),
        ("*.log", f"*.log\n\n{state_files.IGNORE_HEADER}\n/.a\n/.b\n"),
        ("*.log\n/.a\n", f"*.log\n/.a\n\n{state_files.IGNORE_HEADER}\n/.b\n"),
        ("/.b\n/.a\n", None),
    ],
)
def test_gitignore_gets_only_what_is_missing(existing: str | None, expected: str | None) -> None:
    assert state_files.updated_gitignore(existing, ["/.a", "/.b"]) == expected

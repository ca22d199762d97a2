"""`gitcurator pause` and `resume`: the schedule's pause, idempotent both ways."""

from __future__ import annotations

from pathlib import Path

from gitcurator.commands.pause import pause, resume


def test_pause_and_resume_say_what_changed(repo: Path) -> None:
    assert pause(repo).text.startswith(f"paused automatic passes (maybe-run) in {repo}; ")
    assert "automatic passes are already paused since " in pause(repo).text
    resumed = resume(repo).text
    assert resumed == (
        f"resumed automatic passes in {repo}\nthe next `gitcurator maybe-run` starts the clock"
    )
    assert resume(repo).text == "automatic passes are not paused; nothing changed"

"""agents.status: the unknown-names file an agent's loads of other folders' skills fill."""

from __future__ import annotations

from pathlib import Path

from gitcurator.agents import status


def test_a_backfill_of_unknown_loads_stops_at_the_cap(tmp_path: Path) -> None:
    # The cap was checked once before the write, so one ingest wrote all its unknown loads
    # (megabytes, which `connect --list` then read whole).
    names = [f"other-skill-{i % 100:03d}" for i in range(200_000)]
    status.note_delivery(tmp_path, "claude-code", "2026-09-01T10:00:00Z", "", names)
    path = status.folder(tmp_path) / "claude-code.unknown"
    assert 0 < path.stat().st_size <= 1 << 20
    assert path.read_bytes().endswith(b"\n"), "whole lines only"
    status.note_delivery(tmp_path, "claude-code", "2026-09-01T10:00:00Z", "", names)
    assert path.stat().st_size <= 1 << 20
    assert sum(status.unknown_names(tmp_path, "claude-code").values()) > 50_000

"""`add` and `update` over many skills tell a progress how far they got (shown on a terminal
by the CLI, `gitcurator.cli.progress`)."""

from __future__ import annotations

from pathlib import Path

from support.upstream import commit_all, edit_line, make_library, make_source

from gitcurator.commands.add import add
from gitcurator.commands.update import update


class Heard:
    """A Progress that keeps what it is told."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def __call__(self, label: str, done: int, total: int) -> None:
        self.calls.append((label, done, total))

    def ends(self) -> dict[str, tuple[int, int]]:
        """Each label's last (done, total)."""
        return {label: (done, total) for label, done, total in self.calls}


def test_add_and_update_report_each_step(tmp_path: Path) -> None:
    names = tuple(f"skill-{i}" for i in range(12))
    source, lib = make_source(tmp_path, names), make_library(tmp_path)
    heard = Heard()
    assert add(lib, str(source), names, progress=heard).code == 0
    ends = heard.ends()
    assert ends["copying skills"] == (12, 12)
    assert ends["writing the commit"] == (1, 1)
    assert any(label.startswith("fetching") for label in ends)
    edit_line(source / "skills/skill-3/SKILL.md", "Step 2 of skill-3.", "Step 2, new.")
    commit_all(source, "edit")
    heard = Heard()
    assert update(lib, (), progress=heard).code == 0
    assert heard.ends() == {
        "fetching sources": (12, 12),
        "merging": (12, 12),
        "writing the update": (1, 1),
    }

"""The reference warnings: archived, absorbed, absent (explicit form only), live is fine."""

from __future__ import annotations

from gitcurator.references.findings import reference_findings
from gitcurator.references.graph import Reference, graph_of
from gitcurator.skills.document import SkillLocation


def _ref(target: str, kind: str = "backticks", live: bool = True) -> Reference:
    return Reference("AGENTS.md", False, live, target, kind, "AGENTS.md", 1, target)


def test_each_kind_of_dangling_reference() -> None:
    locations = [
        SkillLocation("live", "live/SKILL.md"),
        SkillLocation(".archive/gone", ".archive/gone/SKILL.md", archived=True),
        SkillLocation(".archive/folded", ".archive/folded/SKILL.md", archived=True),
    ]
    graph = graph_of(
        [
            _ref("live"),
            _ref("gone"),
            _ref("folded"),
            _ref("nowhere", "skill-prefix"),
            _ref("nowhere", "codex"),
            _ref("gone", live=False),  # an archived skill's own references are history
        ]
    )
    found = reference_findings(graph, locations, {"folded": "umbrella"})
    assert [(f.rule, f.level) for f in found] == [
        ("reference-absorbed", "warning"),
        ("reference-archived", "warning"),
        ("reference-absent", "warning"),
    ]
    assert "folded into umbrella; name umbrella" in found[0].message

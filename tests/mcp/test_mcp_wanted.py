"""`gitcurator mcp` driven by the SDK's stdio client: a load of an archived skill is refused
and kept as wanted, each request once, so the next pass can propose the skill back."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from support.mcp_client import connect
from support.repos import run_cli


def test_loads_of_an_archived_skill_are_refused_and_kept_as_wanted(
    served: Path, tmp_path: Path
) -> None:
    async def session() -> list[tuple[bool, str]]:
        async with connect(served, tmp_path / "server.log") as client:
            return [
                await client.tool_text("load_skill", name="sourdough-starter"),
                await client.tool_text(
                    "read_skill_file", name="sourdough-starter", path="SKILL.md"
                ),
                await client.tool_text("load_skill", name="no-such-skill"),
            ]

    first, second, unknown = anyio.run(session)
    for error, text in (first, second):
        assert error and "is archived" in text and "noted as wanted" in text
    assert unknown[0] and "no skill named no-such-skill" in unknown[1]
    assert run_cli("flush", "-C", str(served)).code == 0
    shown = json.loads(run_cli("show", "sourdough-starter", "--json", "-C", str(served)).out)
    assert (shown["wanted_count"], shown["use_count"]) == (2, 0)
    proposed = json.loads(run_cli("run", "--dry-run", "--json", "-C", str(served)).out)
    assert [r["skill"] for r in proposed["restores"]] == ["sourdough-starter"]

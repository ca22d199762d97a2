"""Eight hosts at once, each with its own `gitcurator mcp` process: every load counted once."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from support.mcp_client import connect
from support.repos import run_cli

from gitcurator import statefiles

CLIENTS = 8
ROUNDS = 5
LOADS = ["pdf-extract", "helm-deploy", "docker-build"]  # docker-build counts for helm-deploy


def test_eight_concurrent_clients_have_every_load_counted_once(
    served: Path, tmp_path: Path
) -> None:
    answers: list[bool] = []

    async def host(n: int) -> None:
        async with connect(served, tmp_path / f"server-{n}.log") as client:
            for _ in range(ROUNDS):
                for name in LOADS:
                    error, _ = await client.tool_text("load_skill", name=name)
                    answers.append(error)
                error, _ = await client.tool_text(
                    "read_skill_file", name="pdf-extract", path="references/notes.md"
                )
                answers.append(error)

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for n in range(CLIENTS):
                group.start_soon(host, n)

    anyio.run(main)
    assert answers == [False] * CLIENTS * ROUNDS * (len(LOADS) + 1)
    path = served / ".git" / statefiles.STATE_DIR / statefiles.JOURNAL
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == CLIENTS * ROUNDS * (len(LOADS) + 1)
    # One session per client, one event id per request: no two lines share an id.
    assert len({line["i"] for line in lines}) == len(lines)
    assert len({line["i"].rsplit("-", 1)[0] for line in lines}) == CLIENTS
    assert run_cli("flush", "-C", str(served)).code == 0
    for name, uses, views in (
        ("pdf-extract", CLIENTS * ROUNDS, CLIENTS * ROUNDS),
        ("helm-deploy", 2 * CLIENTS * ROUNDS, 0),
    ):
        shown = json.loads(run_cli("show", name, "--json", "-C", str(served)).out)
        assert (shown["use_count"], shown["view_count"]) == (uses, views), name

"""The library moving under a running server: a merged pass, a commit, a locked repository."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
from support.mcp_client import connect
from support.passes import make_pass
from support.repos import git, run_cli, write_skill

from gitcurator import statefiles
from gitcurator.locks import notes_lock, pass_lock
from gitcurator.telemetry import journal


def _names(text: str) -> list[str]:
    return [row["name"] for row in json.loads(text)]


def test_a_pass_merged_while_the_server_runs_is_served_at_the_next_request(
    served: Path, tmp_path: Path
) -> None:
    async def main() -> None:
        async with connect(served, tmp_path / "server.log") as client:
            error, text = await client.tool_text("load_skill", name="pdf-extract")
            assert not error and text.startswith(
                (served / "documents/pdf-extract/SKILL.md").read_text()
            )
            # An agent writes a skill without committing it: the work tree is not served.
            write_skill(served, "drafts/half-written")
            error, text = await client.tool_text("load_skill", name="half-written")
            assert error and "no skill named half-written" in text

            make_pass(served, folders=("documents/pdf-extract",))
            assert run_cli("merge", "-C", str(served)).code == 0
            error, text = await client.tool_text("load_skill", name="pdf-extract")
            assert error and "pdf-extract is archived (at .archive/documents/pdf-extract)" in text
            _, listing = await client.tool_text("list_skills")
            assert _names(listing) == ["big-dataset", "helm-deploy"]
            resources = await client.session.list_resources()
            assert "skill://documents/pdf-extract/SKILL.md" not in {
                r.uri for r in resources.resources
            }
            await client.wait_for_change()

            client.changes.clear()
            git("add", "drafts", cwd=served)
            git("commit", "-qm", "the agent's new skill", cwd=served)
            error, text = await client.tool_text("load_skill", name="half-written")
            assert not error and text.startswith("---\nname: half-written")
            await client.wait_for_change()

    anyio.run(main)


def test_a_2026_client_hears_of_the_change_on_its_listen_stream(
    served: Path, tmp_path: Path
) -> None:
    async def main() -> None:
        async with connect(served, tmp_path / "server.log", mode="auto") as client:
            assert client.sdk is not None
            async with client.sdk.listen(resources_list_changed=True) as stream:
                write_skill(served, "drafts/new-one")
                git("add", "drafts", cwd=served)
                git("commit", "-qm", "a new skill", cwd=served)
                with anyio.fail_after(10):
                    event = await stream.__anext__()
                assert type(event).__name__ == "ResourcesListChanged"
            error, _ = await client.tool_text("load_skill", name="new-one")
            assert not error

    anyio.run(main)


def test_it_keeps_serving_while_a_pass_or_a_sync_holds_the_repository(
    served: Path, tmp_path: Path
) -> None:
    state = served / ".git" / statefiles.STATE_DIR
    # What a pass and a sync hold: the pass lock, the notes lock, git's own lock files.
    locks = [served / ".git" / "index.lock", served / ".git" / "refs/heads/main.lock"]

    async def main() -> list[tuple[bool, str]]:
        async with connect(served, tmp_path / "server.log") as client:
            with pass_lock(state), notes_lock(state):
                for lock in locks:
                    lock.write_text("")
                try:
                    return [
                        await client.tool_text("load_skill", name="helm-deploy"),
                        await client.tool_text(
                            "read_skill_file", name="pdf-extract", path="references/notes.md"
                        ),
                    ]
                finally:
                    for lock in locks:
                        os.unlink(lock)

    answers = anyio.run(main)
    assert [error for error, _ in answers] == [False, False]
    events, _ = journal.read_events(state / statefiles.JOURNAL)
    assert [(e.kind, e.names) for e in events] == [
        ("use", ("helm-deploy",)),
        ("view", ("pdf-extract",)),
    ]

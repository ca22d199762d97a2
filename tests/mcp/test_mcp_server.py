"""`gitcurator mcp` as a real process, driven by the `mcp` SDK's own stdio client: what it
serves, what it refuses, and that exactly the loads are counted (journal, `show`, git notes)."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from support.journal_lines import journal_lines
from support.mcp_client import NOTES, PNG, Client, connect
from support.passes import snapshot
from support.repos import git, note_key, run_cli

LIVE = ["big-dataset", "helm-deploy", "pdf-extract"]


def _show(repo: Path, name: str) -> dict[str, Any]:
    result = run_cli("show", name, "--json", "-C", str(repo))
    assert result.code == 0, result
    doc: dict[str, Any] = json.loads(result.out)
    return doc


def _git_note(repo: Path, name: str) -> dict[str, Any]:
    """A skill's record as plain git reads it."""
    shown = git("notes", "--ref=gitcurator", "show", note_key(repo, name), cwd=repo).stdout
    doc: dict[str, Any] = json.loads(shown)
    return doc


def _totals(note: dict[str, Any]) -> tuple[int, int]:
    hosts = note["hosts"].values()
    return sum(h["use_count"] for h in hosts), sum(h["view_count"] for h in hosts)


async def _session(client: Client, repo: Path) -> dict[str, Any]:
    """Everything a host does in one session; returns what the checks need."""
    seen: dict[str, Any] = {}
    tools = await client.session.list_tools()
    seen["tools"] = sorted(t.name for t in tools.tools)
    resources = await client.session.list_resources()
    seen["resources"] = sorted(r.uri for r in resources.resources)
    seen["load"] = await client.session.call_tool("load_skill", {"name": "pdf-extract"})
    seen["notes"] = await client.tool_text(
        "read_skill_file", name="pdf-extract", path="references/notes.md"
    )
    seen["inner"] = await client.tool_text(
        "read_skill_file", name="pdf-extract", path="references/inner.md"
    )
    seen["png"] = await client.session.call_tool(
        "read_skill_file", {"name": "pdf-extract", "path": "assets/logo.png"}
    )
    seen["absorbed"] = await client.session.call_tool("load_skill", {"name": "docker-build"})
    seen["archived"] = await client.tool_text("load_skill", name="sourdough-starter")
    seen["unknown"] = await client.tool_text("load_skill", name="no-such-skill")
    seen["dotdot"] = await client.tool_text(
        "read_skill_file", name="pdf-extract", path="../../devops/k8s/helm-deploy/SKILL.md"
    )
    seen["link_out"] = await client.tool_text(
        "read_skill_file", name="pdf-extract", path="references/outside/k8s/helm-deploy/SKILL.md"
    )
    seen["big"] = await client.tool_text("read_skill_file", name="big-dataset", path="rows.csv")
    skill_md = "skill://documents/pdf-extract/SKILL.md"
    seen["read_md"] = await client.session.read_resource(skill_md)
    seen["read_notes"] = await client.session.read_resource(
        "skill://documents/pdf-extract/references/notes.md"
    )
    seen["listed"] = await client.request("skills/list")
    seen["got"] = await client.request("skills/get", uri=skill_md)
    seen["list"] = await client.tool_text("list_skills")
    seen["query"] = await client.session.call_tool("list_skills", {"query": "kubernetes charts"})
    return seen


def test_a_session_serves_live_skills_refuses_the_rest_and_counts_exactly_the_loads(
    served: Path, tmp_path: Path
) -> None:
    before = snapshot(served)
    log = tmp_path / "server.log"

    async def main() -> dict[str, Any]:
        async with connect(served, log) as client:
            assert client.capabilities.tools is not None
            assert client.capabilities.resources is not None
            assert client.capabilities.resources.list_changed is True
            assert client.instructions and "load_skill" in client.instructions
            return await _session(client, served)

    seen = anyio.run(main)
    assert seen["tools"] == ["list_skills", "load_skill", "read_skill_file"]
    assert seen["resources"] == [
        "skill://data/big-dataset/SKILL.md",
        "skill://devops/k8s/helm-deploy/SKILL.md",
        "skill://documents/pdf-extract/SKILL.md",
    ]
    pdf_md = (served / "documents/pdf-extract/SKILL.md").read_text()
    load = seen["load"]
    assert not load.is_error
    assert load.content[0].text == pdf_md
    files = [f["path"] for f in load.structured_content["files"]]
    assert files == [
        "assets/logo.png",
        "references/inner.md",
        "references/notes.md",
        "references/outside",
    ]
    link = {"path": "references/outside", "size": 15, "link": "../../../devops"}
    assert load.structured_content["files"][3] == link
    assert "- references/outside (symlink to ../../../devops)" in load.content[1].text
    assert seen["notes"] == (False, NOTES)
    assert seen["inner"] == (False, NOTES)
    (block,) = seen["png"].content
    assert isinstance(block, types.EmbeddedResource)
    assert base64.b64decode(block.resource.blob) == PNG
    assert block.resource.mime_type == "image/png"

    absorbed = seen["absorbed"]
    helm_md = (served / "devops/k8s/helm-deploy/SKILL.md").read_text()
    assert not absorbed.is_error
    assert absorbed.content[0].text.startswith("`docker-build` was folded into `helm-deploy`")
    assert absorbed.content[0].text.endswith(helm_md)
    assert absorbed.structured_content["name"] == "helm-deploy"

    error, text = seen["archived"]
    assert error and "sourdough-starter is archived (at .archive/sourdough-starter)" in text
    assert "gitcurator restore sourdough-starter" in text
    error, text = seen["unknown"]
    assert error and "no skill named no-such-skill" in text
    error, text = seen["dotdot"]
    assert error and "`..` is not allowed" in text
    error, text = seen["link_out"]
    assert error and "references/outside is a symlink out of the skill" in text
    error, text = seen["big"]
    assert error and "rows.csv is 50.0 MiB; files over 1 MiB are not served" in text

    (md,) = seen["read_md"].contents
    assert (md.uri, md.mime_type, md.text) == (
        "skill://documents/pdf-extract/SKILL.md",
        "text/markdown",
        pdf_md,
    )
    assert seen["read_notes"].contents[0].text == NOTES

    listed = {e["frontmatter"]["name"]: e for e in seen["listed"]["skills"]}
    # big-dataset holds 50 MB: over the Skills extension's 16 MiB, so it is not listed there.
    assert sorted(listed) == ["helm-deploy", "pdf-extract"]
    entry = seen["got"]["skill"]
    assert entry == listed["pdf-extract"]
    assert entry["frontmatter"] == {
        "name": "pdf-extract",
        "description": "Extract tables from PDFs.",
    }
    digests = {r["uri"].rsplit("pdf-extract/", 1)[1]: r for r in entry["resources"]}
    notes_bytes = NOTES.encode()
    assert digests["references/notes.md"] == {
        "uri": "skill://documents/pdf-extract/references/notes.md",
        "digest": "sha256:" + hashlib.sha256(notes_bytes).hexdigest(),
        "size": len(notes_bytes),
    }
    assert digests["SKILL.md"]["digest"] == "sha256:" + hashlib.sha256(pdf_md.encode()).hexdigest()

    rows = json.loads(seen["list"][1])
    assert [r["name"] for r in rows] == LIVE
    assert rows[2] == {
        "name": "pdf-extract",
        "description": "Extract tables from PDFs.",
        "path": "documents/pdf-extract",
    }
    ranked = seen["query"].structured_content["skills"]
    assert ranked[0]["name"] == "helm-deploy"

    # Nothing but telemetry was written: refs, index and work tree are as they were.
    assert snapshot(served) == before
    # pdf-extract: load_skill, skills/get, read of SKILL.md are uses; notes, inner and png
    # by the tool and notes as a resource are views. helm-deploy: the absorbed name's load.
    # The refused load of an archived skill is kept as wanted; other refusals, lists and
    # searches record nothing.
    events = journal_lines(served)
    assert sorted((e["k"], e["n"][0]) for e in events) == sorted(
        [("use", "pdf-extract")] * 3
        + [("view", "pdf-extract")] * 4
        + [("use", "helm-deploy"), ("wanted", "sourdough-starter")]
    )
    # The source and the event id are in the journal line, and `show` counts uses by source.
    assert {e["s"] for e in events} == {"mcp"}
    assert len({e["i"] for e in events}) == len(events)
    assert run_cli("flush", "-C", str(served)).code == 0
    shown = _show(served, "pdf-extract")
    assert (shown["use_count"], shown["view_count"]) == (3, 4)
    assert shown["sources"] == {"mcp": 3}
    assert _totals(_git_note(served, "pdf-extract")) == (3, 4)
    assert _totals(_git_note(served, "helm-deploy")) == (1, 0)
    assert _show(served, "sourdough-starter")["use_count"] == 0
    assert "warning" not in log.read_text()


def test_the_skills_extension_is_advertised_to_a_2026_client(served: Path, tmp_path: Path) -> None:
    async def main() -> tuple[types.ServerCapabilities, dict[str, Any], str]:
        async with connect(served, tmp_path / "server.log", mode="auto") as client:
            entry = await client.request(
                "skills/get", uri="skill://devops/k8s/helm-deploy/SKILL.md"
            )
            try:
                await client.request("skills/get", uri="skill://data/big-dataset/SKILL.md")
            except Exception as exc:  # the SDK raises the error response as MCPError
                refused = str(exc)
            return client.capabilities, entry, refused

    capabilities, entry, refused = anyio.run(main)
    assert capabilities.extensions == {"io.modelcontextprotocol/skills": {}}
    assert entry["skill"]["uri"] == "skill://devops/k8s/helm-deploy/SKILL.md"
    assert "big-dataset is not served by the Skills extension" in refused
    assert "16 MiB" in refused

"""The MCP server on stdio, built on the official `mcp` SDK: the only module that imports it.

Tools for every host (`list_skills`, `load_skill`, `read_skill_file`); each skill file as a
`skill://` resource; and the Skills extension's `skills/list` and `skills/get`. The SDK has
no helpers for that extension, so its two methods are registered as extension methods of the
low-level server and the extension is advertised under the server's capabilities.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.session import ServerSession
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourcesListChanged
from mcp.shared.exceptions import MCPError

from gitcurator import __version__
from gitcurator.mcp.service import FileRead, Loaded, Refused, SkillService
from gitcurator.output import warn

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
# How often HEAD is compared to send `notifications/resources/list_changed` (two file reads).
POLL_SECONDS = 1.0
# Entries per `skills/list` page: each one costs a read of every file of its skill (digests).
SKILLS_PAGE = 100
Context = ServerRequestContext[dict[str, Any], Any]

INSTRUCTIONS = (
    "The skills of a gitcurator library. Call list_skills (with a query to rank them by "
    "wording) to see what exists, load_skill to read one before you follow it, and "
    "read_skill_file for a file it refers to. Archived skills are not served."
)
_NAME = {"type": "string", "description": "The skill's name, as list_skills gives it."}
TOOLS = [
    types.Tool(
        name="list_skills",
        description="The live skills: name, description and path; with `query`, the skills "
        "whose wording matches it best first.",
        input_schema={
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words about the task at hand."},
                "limit": {"type": "integer", "minimum": 1, "description": "At most this many."},
            },
        },
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    ),
    types.Tool(
        name="load_skill",
        description="A skill's SKILL.md, and the list of its support files. Load a skill "
        "before following it.",
        input_schema={"type": "object", "properties": {"name": _NAME}, "required": ["name"]},
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    ),
    types.Tool(
        name="read_skill_file",
        description="One support file of a skill, by its path inside the skill folder "
        "(e.g. references/notes.md).",
        input_schema={
            "type": "object",
            "properties": {
                "name": _NAME,
                "path": {"type": "string", "description": "Relative to the skill folder."},
            },
            "required": ["name", "path"],
        },
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    ),
]
TEMPLATE = types.ResourceTemplate(
    uri_template="skill://{+path}",
    name="skill-file",
    description="A file of a skill: skill://<skill path>/<file path in the skill>.",
)


class _GetSkillParams(types.RequestParams):
    uri: str


def serve(start: Path) -> None:
    """Serve the library holding `start` on stdin/stdout until the client closes stdin."""
    with SkillService(start) as service:
        server = build_server(service)
        anyio.run(_run, server)


async def _run(server: Server[dict[str, Any]]) -> None:
    options = server.create_initialization_options(NotificationOptions(resources_changed=True))
    async with stdio_server() as (read, write):
        await server.run(read, write, options)


def build_server(service: SkillService) -> Server[dict[str, Any]]:
    """A low-level MCP server answering from `service`."""
    # Who hears that the list changed: handshake-era sessions directly, 2026-07-28 clients
    # through the `subscriptions/listen` streams they opened.
    sessions: list[ServerSession] = []
    bus = InMemorySubscriptionBus()

    @asynccontextmanager
    async def lifespan(_: Server[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
        async with anyio.create_task_group() as group:
            group.start_soon(_watch_head, service, sessions, bus)
            yield {}
            group.cancel_scope.cancel()

    async def initialized(ctx: Context, _: types.NotificationParams) -> None:
        sessions.append(ctx.session)

    async def list_tools(
        _: Context, __: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Context, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            return _call(service, params.name, params.arguments or {}, ctx.request_id)
        except Refused as exc:
            return types.CallToolResult(content=[_text(str(exc))], is_error=True)
        finally:
            _report(service)

    async def list_resources(
        _: Context, __: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        rows = _answer(service, service.resources)
        return types.ListResourcesResult(
            resources=[types.Resource(mime_type="text/markdown", **row) for row in rows]
        )

    async def list_templates(
        _: Context, __: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[TEMPLATE])

    async def read_resource(
        ctx: Context, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        read = _answer(service, lambda: service.read_resource(params.uri, ctx.request_id))
        return types.ReadResourceResult(contents=[_contents(params.uri, read)])

    async def skills_list(ctx: Context, params: types.PaginatedRequestParams) -> dict[str, Any]:
        offset = _offset(params.cursor)
        entries, following = _answer(service, lambda: service.skill_entries(offset, SKILLS_PAGE))
        doc: dict[str, Any] = {"resultType": "complete", "skills": entries}
        if following is not None:
            doc["nextCursor"] = str(following)
        return {**doc, "ttlMs": 0, "cacheScope": "private"}

    async def skills_get(ctx: Context, params: _GetSkillParams) -> dict[str, Any]:
        entry = _answer(service, lambda: service.skill_entry(params.uri, ctx.request_id))
        return {"resultType": "complete", "skill": entry, "ttlMs": 0, "cacheScope": "private"}

    server: Server[dict[str, Any]] = Server(
        "gitcurator",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscriptions_listen=ListenHandler(bus),
    )
    server.add_request_handler("skills/list", types.PaginatedRequestParams, skills_list)
    server.add_request_handler("skills/get", _GetSkillParams, skills_get)
    server.add_notification_handler(
        "notifications/initialized", types.NotificationParams, initialized
    )
    server.extensions[SKILLS_EXTENSION] = {}
    return server


def _call(
    service: SkillService, name: str, args: dict[str, Any], request_id: object
) -> types.CallToolResult:
    if name == "list_skills":
        query, limit = args.get("query"), args.get("limit")
        if query is not None and not isinstance(query, str):
            raise Refused("list_skills: `query` must be a string")
        # bool is an int to Python: `"limit": true` must not mean one skill.
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or limit < 1
        ):
            raise Refused("list_skills: `limit` must be a whole number of at least 1")
        rows = service.list_skills(query, limit)
        return types.CallToolResult(
            content=[_text(json.dumps(rows, ensure_ascii=False))],
            structured_content={"skills": rows},
        )
    if name == "load_skill":
        return _loaded(service.load_skill(_string(args, name, "name"), request_id))
    if name == "read_skill_file":
        skill, path = _string(args, name, "name"), _string(args, name, "path")
        read = service.read_skill_file(skill, path, request_id)
        return types.CallToolResult(
            content=[_block(read)],
            structured_content={"name": read.skill.name, "path": read.path, "size": len(read.data)},
        )
    raise Refused(f"no tool named {name}; the tools are list_skills, load_skill, read_skill_file")


def _loaded(loaded: Loaded) -> types.CallToolResult:
    skill = loaded.skill
    blocks: list[types.ContentBlock] = [
        _text(f"{loaded.note}\n\n{loaded.text}" if loaded.note else loaded.text)
    ]
    if loaded.files:
        listing = "\n".join(
            f"- {f.path} (symlink to {f.link})" if f.link else f"- {f.path} ({f.size} bytes)"
            for f in loaded.files
        )
        blocks.append(
            _text(f"Support files of {skill.name} (read one with read_skill_file):\n{listing}")
        )
    doc = {
        "name": skill.name,
        "path": skill.folder,
        "uri": loaded.uri,
        "note": loaded.note,
        "files": [
            {"path": f.path, "size": f.size, **({"link": f.link} if f.link else {})}
            for f in loaded.files
        ],
    }
    return types.CallToolResult(content=blocks, structured_content=doc)


def _string(args: dict[str, Any], tool: str, key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value:
        raise Refused(f"{tool}: `{key}` is required (a string)")
    return value


def _text(text: str) -> types.TextContent:
    return types.TextContent(text=text)


def _block(read: FileRead) -> types.TextContent | types.EmbeddedResource:
    text = _as_text(read.data)
    if text is not None:
        return _text(text)
    return types.EmbeddedResource(resource=_contents(read.uri, read))


def _contents(uri: str, read: FileRead) -> types.TextResourceContents | types.BlobResourceContents:
    text = _as_text(read.data)
    if text is not None:
        return types.TextResourceContents(uri=uri, mime_type=read.mime_type, text=text)
    blob = base64.b64encode(read.data).decode()
    return types.BlobResourceContents(uri=uri, mime_type=read.mime_type, blob=blob)


def _as_text(data: bytes) -> str | None:
    """The bytes as text when they are UTF-8 without NULs (text in, the same bytes out)."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _answer(service: SkillService, ask: Any) -> Any:
    """`ask()`, with a refusal as the protocol's invalid-params error (unknown resource)."""
    try:
        return ask()
    except Refused as exc:
        raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
    finally:
        _report(service)


def _offset(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not cursor.isdigit():
        raise MCPError(code=types.INVALID_PARAMS, message=f"cursor {cursor!r} is not one of ours")
    return int(cursor)


def _report(service: SkillService) -> None:
    for warning in service.drain_warnings():
        warn(f"gitcurator mcp: warning: {warning}")


async def _watch_head(
    service: SkillService, sessions: list[ServerSession], bus: InMemorySubscriptionBus
) -> None:
    """Tell the clients when HEAD moves (a merge, a commit, a pull), re-reading it first."""
    seen = service.fingerprint()[0]
    while True:
        await anyio.sleep(POLL_SECONDS)
        head = service.fingerprint()[0]
        if head == seen:
            continue
        seen = head
        try:
            service.catalogue()
        except Exception as exc:  # the next request reports it; the watch goes on
            warn(f"gitcurator mcp: warning: the library could not be re-read: {exc}")
        _report(service)
        for session in sessions:
            await session.send_resource_list_changed()
        await bus.publish(ResourcesListChanged())

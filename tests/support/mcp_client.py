"""Drive a real `gitcurator mcp` process through the `mcp` SDK's own stdio client.

Used by tests/mcp and bench/bench_mcp.py (no pytest here)::

    async with connect(repo, errlog=tmp / "server.log") as client:
        result = await client.session.call_tool("load_skill", {"name": "pdf-extract"})
        entries = await client.request("skills/list")

`mode="legacy"` (the default) opens with the `initialize` handshake, as today's hosts do;
`mode="auto"` lets the SDK's `Client` discover the 2026-07-28 protocol, where server
capabilities carry extensions. `client.changes` collects the
`notifications/resources/list_changed` the server sent.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.client.client import Client as SdkClient
from mcp.client.session import ClientSession, IncomingMessage
from mcp.client.stdio import StdioServerParameters, stdio_client
from pydantic import TypeAdapter

# The served library's files (tests/mcp/conftest.py), which tests compare with what is served:
# a real PNG header and a NUL, not text by any reading, and a support file's text.
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
NOTES = "# Notes\n\nOpen the file with pdfplumber; tables come back as lists of rows.\n"

_DOC = TypeAdapter(dict[str, Any])


@dataclass
class Client:
    """One connected session, and what the server told it unasked."""

    session: ClientSession
    capabilities: types.ServerCapabilities
    instructions: str | None
    changes: list[str] = field(default_factory=list)
    sdk: SdkClient | None = None  # the SDK's high-level Client, in mode "auto"

    async def request(self, method: str, **params: Any) -> dict[str, Any]:
        """A request the SDK has no method for (the Skills extension's), as a raw result."""
        request = types.Request[dict[str, Any], str](method=method, params=params)
        return await self.session.send_request(request, _DOC)

    async def tool_text(self, tool: str, **arguments: Any) -> tuple[bool, str]:
        """(is_error, the text blocks joined) of one tool call."""
        result = await self.session.call_tool(tool, arguments)
        text = "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))
        return result.is_error, text

    async def wait_for_change(self, seconds: float = 10.0) -> None:
        """Wait until the server has sent a list_changed notification."""
        with anyio.fail_after(seconds):
            while not self.changes:
                await anyio.sleep(0.05)


def server_command(repo: Path) -> tuple[str, list[str]]:
    """The command a host would run: this interpreter's `python -m gitcurator mcp -C REPO`."""
    return sys.executable, ["-m", "gitcurator", "mcp", "-C", str(repo)]


@asynccontextmanager
async def connect(repo: Path, errlog: Path, mode: str = "legacy") -> AsyncIterator[Client]:
    """Start the server on `repo` (its stderr into `errlog`) and open a session."""
    command, args = server_command(repo)
    # The whole environment: PYTHONPATH (the checkout under test), HOME and git identity.
    params = StdioServerParameters(command=command, args=args, env=dict(os.environ))
    changes: list[str] = []

    async def on_message(message: IncomingMessage) -> None:
        if isinstance(message, types.ResourceListChangedNotification):
            changes.append(message.method)

    with errlog.open("a", encoding="utf-8") as log:
        if mode != "legacy":
            # The SDK's Client takes any transport; this one is its stdio client too.
            transport: Any = stdio_client(params, errlog=log)
            async with SdkClient(transport, mode=mode, message_handler=on_message) as sdk:
                yield Client(sdk.session, sdk.server_capabilities, sdk.instructions, changes, sdk)
            return
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            started = await session.initialize()
            yield Client(session, started.capabilities, started.instructions, changes)

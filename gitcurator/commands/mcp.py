"""`gitcurator mcp`: serve the library's live skills to MCP hosts over stdio."""

from __future__ import annotations

from pathlib import Path

from gitcurator.output import Result


def mcp(start: Path) -> Result:
    """Run the MCP server for the repository holding `start` until the host closes stdin."""
    # Imported here: the SDK takes a second to import, and only this command needs it.
    from gitcurator.mcp.server import serve

    serve(start)
    return Result()

"""The MCP server: the library's live skills for any MCP host, every load recorded.

`server` is the only module that imports the `mcp` SDK; it turns protocol requests into calls
on `service`, which answers them from the committed library (`catalogue`) and records usage
through the telemetry journal. `uris`, `paths` and `manifest` are pure; `search.ranking`
ranks the skills for list_skills.
"""

"""Agents feeding the curator: one module per agent (claude_code, codex, hermes) turning its
hook payloads and logs into neutral events, and the shared pieces: the event type, delivery
into the journal, the status of each connection, and editing an agent's settings files.

The hook path (events, paths, delivery, status and the agent modules' payload readers) imports
only the standard library and gitcurator.telemetry's hot path: it runs on every skill load.
Settings editing may import tomlkit/yaml; nothing here imports click or dulwich directly.
Keep this file empty of imports."""

"""Shared test builders: repositories and libraries, the fake OpenAI server."""

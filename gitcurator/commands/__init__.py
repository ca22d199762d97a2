"""One module per command: each exposes a function that does the work and returns an exit code."""

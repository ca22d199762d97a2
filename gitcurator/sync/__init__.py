"""Sync through any git remote: the notes merge (pure) and the exchange of notes and curator
branches."""

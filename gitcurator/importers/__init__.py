"""Importers: read another agent's skill-library state into gitcurator's records (pure).

Each importer parses the other agent's files from their bytes, maps its names to skill
identities and proposes usage records; `gitcurator.commands.import_*` does the reading, the
committing and the notes writing.
"""

"""Importers: take over another agent's skill library and its state into gitcurator's records.

Each importer has a pure core (the other agent's file names and formats decoded from bytes,
its names mapped to skill identities, a plan of usage facts) and a shell that reads the
folder, commits the skills through `store` and writes the notes through `telemetry.ledger`.
`gitcurator.commands.import_*` opens the repository, calls the shell and returns a Result.
"""

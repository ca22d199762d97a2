"""Usage and provenance: the journal and its line format (hot path), records and their merge,
the names the repository knows and their cache, folding the journal into git notes (ledger).

The hot path (recording, gitdir, events, journal, names_cache, host) imports only the standard
library and gitcurator.statefiles. Keep this file empty of imports: `record` pays for every one."""

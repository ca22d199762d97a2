"""Usage and provenance: the journal (hot path), events, records and their merge, the names
cache, folding the journal into git notes.

The hot path (journal, recording) imports only the standard library. Keep this file empty of
imports: `record` pays for every one."""

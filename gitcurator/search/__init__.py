"""Search: skills ranked by wording, for `gitcurator search` and the MCP server's list_skills.

`ranking` (pure) builds the index with the wording model `clusters` uses (`umbrella.wording`)
and keeps it as text; `index_cache` (the shell) reads the default branch's skills, live and
archived, and keeps that text in `.git/gitcurator/`, keyed by the tree it was built from.
May import skills/, umbrella/ (the wording model); index_cache also store/, library, config and
telemetry.ledger (the state folder).
"""

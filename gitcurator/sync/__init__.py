"""Sync through any git remote.

notes_merge is pure (two sides' records merged one by one: per-host counters and event-id
sets, so nothing counts twice or is lost; may import telemetry.records only). session drives a
sync: fetch, merge, push by compare-and-swap, retry; notes_exchange and branch_exchange do the
two halves through `store` and `telemetry.ledger`; skills_repo refuses a side that is not a
skills repository. Nothing here prints.
"""

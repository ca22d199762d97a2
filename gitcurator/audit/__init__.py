"""The audit trail, from commit messages alone, so a fresh clone tells it whole.

trailers (every key a commit carries, and the parser) and trail (commits grouped into passes,
merges, rollbacks and restores) are pure: standard library only. passes reads the curator
branches and history through `store` to find each pass and its status.
"""

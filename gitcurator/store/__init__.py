"""gitcurator's porcelain over dulwich: the only package that imports dulwich.

`repo` opens, stages, commits and reads the index; `notes` reads and writes the telemetry
notes; `history` walks commits for the facts derived from them.
"""

from __future__ import annotations

from dulwich.objects import ObjectID

from gitcurator.store.repository import (
    DEFAULT_BRANCH,
    StagedFile,
    Store,
    WorktreeChanges,
    WorktreeScan,
)

__all__ = ["DEFAULT_BRANCH", "ObjectID", "StagedFile", "Store", "WorktreeChanges", "WorktreeScan"]

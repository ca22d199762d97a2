"""Hermes Agent's state files beside its skill folders: their names, and keeping them out of git.

Beside its skill folders Hermes keeps (hermes-agent 0.19, tools/skill_usage.py and friends):

- `.usage.json`: one JSON object keyed by skill name (normally the frontmatter `name:`; folder
  names and `category/name` also occur), each value a record with any of `created_by`,
  `use_count`, `view_count`, `patch_count`, `last_used_at`, `last_viewed_at`,
  `last_patched_at`, `created_at`, `state`, `pinned`, `archived_at`;
- `.hub/lock.json`: `{"version": 1, "installed": {name: {"install_path": ..., ...}}}`;
- `.bundled_manifest`: one `name:hash` (bare `name` in its first version) per line;
- `.archive/`: archived skill folders, which are skills (imported, as archived), not state.

Pure: names and patterns in, .gitignore text out. hermes.formats decodes the files.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gitcurator.skills.document import ARCHIVE_DIR

USAGE_FILE = ".usage.json"
HUB_LOCK = ".hub/lock.json"
BUNDLED_MANIFEST = ".bundled_manifest"

# Hermes' own state at the top of its skills folder (hermes-agent 0.19: skill_usage.py,
# skills_sync.py, skills_hub.py, curator.py, curator_backup.py), ignored by git even before
# Hermes first writes them. Temporary files come from its atomic writes.
KNOWN_STATE = (
    ".usage.json",
    ".usage.json.lock",
    ".usage_*.tmp",
    ".hub",
    ".bundled_manifest",
    ".bundled_manifest_*.tmp",
    ".curator_state",
    ".curator_suppressed",
    ".curator_suppressed_*.tmp",
    ".curator_backups",
    ".restore-backups",
    ".termux_bundled_sync_stamp",
)
# Top-level dot-entries that are never Hermes state: git's, gitcurator's, the archive, and
# the tooling a person keeps in a skills repository.
NOT_STATE = frozenset(
    {
        ".git",
        ".gitignore",
        ".gitattributes",
        ".gitcurator.yaml",
        ".curator",
        ARCHIVE_DIR,
        ".github",
        ".pre-commit-config.yaml",
    }
)
IGNORE_HEADER = "# Hermes Agent's own state: gitcurator keeps usage, pins and origins in git notes"


def is_state_entry(name: str) -> bool:
    """Whether a top-level entry of a Hermes skills folder is Hermes' state, not skills."""
    return name.startswith(".") and name not in NOT_STATE


def is_known_state(name: str) -> bool:
    """Whether a top-level entry is one of the state files Hermes is known to write."""
    return any(fnmatch.fnmatchcase(name, known) for known in KNOWN_STATE)


def ignore_patterns(found: Iterable[str] = ()) -> list[str]:
    """.gitignore lines (anchored at the skills folder) for Hermes' state: the known entries
    and any other state entry `found` there."""
    patterns = ["/" + known for known in KNOWN_STATE]  # their `*` are meant as globs
    for name in sorted(found):
        if not is_known_state(name):
            patterns.append("/" + _escape_glob(name))
    return patterns


def _escape_glob(name: str) -> str:
    # A literal name in .gitignore: glob characters and backslashes are escaped.
    return "".join("\\" + c if c in "*?[\\" else c for c in name)


def updated_gitignore(existing: str | None, patterns: Sequence[str]) -> str | None:
    """`existing` with the missing `patterns` appended under a header; None if none is missing."""
    present = {line.strip() for line in (existing or "").splitlines()}
    missing = [p for p in patterns if p not in present]
    if not missing:
        return None
    text = existing or ""
    if text and not text.endswith("\n"):
        text += "\n"
    if text:
        text += "\n"
    header = [IGNORE_HEADER] if IGNORE_HEADER not in present else []
    return text + "\n".join([*header, *missing]) + "\n"


@dataclass(frozen=True, slots=True)
class HermesFiles:
    """The contents of Hermes' three state files (None: the file is absent)."""

    usage: bytes | None = None
    hub_lock: bytes | None = None
    bundled_manifest: bytes | None = None

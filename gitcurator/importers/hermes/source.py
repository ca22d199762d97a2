"""Reading a Hermes skills folder from disk: its files, its state files, its skills' names."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gitcurator.errors import UsageError
from gitcurator.importers.hermes.state_files import (
    BUNDLED_MANIFEST,
    HUB_LOCK,
    USAGE_FILE,
    HermesFiles,
    is_state_entry,
)
from gitcurator.skills.document import (
    MAX_SKILL_MD_BYTES,
    SkillLocation,
    SkillParseError,
    parse_skill_md,
)


@dataclass(frozen=True, slots=True)
class SourceListing:
    """A Hermes skills folder: its files (state and .git left out) and its state entries."""

    files: list[str]
    state: list[str]


def source_folder(source: Path) -> Path:
    """`source` as an absolute path, if it is a folder; a UsageError saying what it is if not."""
    if not source.exists():
        raise UsageError(f"{source}: no such folder; give the Hermes skills folder to import")
    if not source.is_dir():
        raise UsageError(f"{source} is a file; give the Hermes skills folder to import")
    return source.absolute()


def list_source(source: Path) -> SourceListing:
    """Every file of the folder as a relative posix path, without .git and Hermes' state."""
    files: list[str] = []
    state: list[str] = []
    for dirpath, dirnames, filenames in os.walk(source):
        rel = Path(dirpath).relative_to(source).as_posix()
        prefix = "" if rel == "." else rel + "/"
        if not prefix:
            state = sorted(n for n in [*dirnames, *filenames] if is_state_entry(n))
        keep = []
        for name in sorted(dirnames):
            if os.path.islink(os.path.join(dirpath, name)):
                filenames.append(name)  # git records a symlinked folder as a file
            elif name != ".git" and not (not prefix and name in state):
                keep.append(name)
        dirnames[:] = keep
        files += [prefix + n for n in filenames if not (not prefix and n in state)]
    return SourceListing(sorted(files), state)


def read_files(source: Path) -> tuple[HermesFiles, list[str]]:
    """Hermes' three state files (absent ones are None) and any that could not be read."""
    found: dict[str, bytes | None] = {}
    problems: list[str] = []
    for key, name in (
        ("usage", USAGE_FILE),
        ("hub_lock", HUB_LOCK),
        ("bundled_manifest", BUNDLED_MANIFEST),
    ):
        path = source / name
        try:
            found[key] = path.read_bytes() if path.is_file() else None
        except OSError as exc:
            found[key] = None
            problems.append(f"{name} cannot be read ({exc.strerror}); it was not imported")
    return HermesFiles(**found), problems


def frontmatter_names(source: Path, locations: Sequence[SkillLocation]) -> dict[str, str]:
    """Skill folder → its SKILL.md's `name:` (skills whose SKILL.md does not parse: none)."""
    names: dict[str, str] = {}
    for loc in locations:
        path = source / loc.skill_md
        with contextlib.suppress(SkillParseError, OSError):
            # A symlinked or oversized SKILL.md is validation's to report, not ours to read.
            if path.is_symlink() or path.stat().st_size > MAX_SKILL_MD_BYTES:
                continue
            name = parse_skill_md(path.read_bytes()).name
            if name:
                names[loc.folder] = name
    return names

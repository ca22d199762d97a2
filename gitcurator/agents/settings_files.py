"""Editing an agent's settings files safely: parse first, refuse with the reason, back up,
replace atomically.

A file that does not parse (JSON, TOML, YAML) or cannot be written is refused before anything
is changed; an edit is planned as the file's whole new text, so a dry run shows it and the
apply step only backs up the old file and renames the new one into place.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from gitcurator.errors import CuratorError


class SettingsRefused(CuratorError):
    """A settings file gitcurator must not edit (invalid, unwritable); nothing was changed."""


@dataclass(frozen=True, slots=True)
class FileEdit:
    """One file's new text (None: remove the file gitcurator created), and why."""

    path: Path
    old: str | None
    new: str | None
    what: str
    backup: bool = True  # False for files that are gitcurator's own (the Hermes plugin)

    @property
    def changes(self) -> bool:
        return self.old != self.new


def read_text(path: Path, what: str) -> str | None:
    """A settings file's text (None when it does not exist), refusing one that cannot be
    read or written back."""
    if not path.exists():
        folder = path.parent
        while not folder.exists():
            folder = folder.parent
        if not os.access(folder, os.W_OK):
            raise SettingsRefused(
                f"cannot create {path} ({folder} is not writable); nothing changed"
            )
        return None
    if not path.is_file():
        raise SettingsRefused(f"{path} is not a file; nothing changed")
    real = Path(os.path.realpath(path))  # a symlinked file (dotfiles) is edited where it lives
    writable = real.stat().st_mode & 0o222  # root's os.access ignores a chmod a-w
    if not writable or not os.access(real, os.W_OK) or not os.access(real.parent, os.W_OK):
        raise SettingsRefused(
            f"{path} ({what}) is read-only; make it writable and connect again (nothing changed)"
        )
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsRefused(f"{path} ({what}) cannot be read: {exc}; nothing changed") from None


def backup_name(path: Path, now: datetime | None = None) -> Path:
    """Where the file's previous version is kept: beside it, stamped, never an older backup's
    name (a connect and a disconnect in one second must both keep theirs)."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    backup = path.with_name(f"{path.name}.gitcurator-{stamp}.bak")
    number = 1
    while backup.exists() or backup.is_symlink():
        number += 1
        backup = path.with_name(f"{path.name}.gitcurator-{stamp}-{number}.bak")
    return backup


def apply(edit: FileEdit) -> Path | None:
    """Write one edit: back up the old file, write the new one atomically; the backup's path."""
    if not edit.changes:
        return None
    backup = None
    if edit.backup and edit.old is not None and edit.path.exists():
        backup = backup_name(edit.path)
        shutil.copy2(edit.path, backup)
    if edit.new is None:
        edit.path.unlink(missing_ok=True)
        return backup
    # Replacing a symlink would cut it off from the file it shares (a dotfiles repository):
    # the new text goes where the link points.
    target = Path(os.path.realpath(edit.path))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.gitcurator-{os.getpid()}.tmp")
    tmp.write_text(edit.new, encoding="utf-8")
    if target.exists():
        shutil.copymode(target, tmp)
    os.replace(tmp, target)
    return backup

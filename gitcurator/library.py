"""Open a skills repository: the git store plus its validated configuration."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gitcurator.config import CONFIG_FILE, Config, parse_config
from gitcurator.errors import ConfigError, UsageError
from gitcurator.store import Store


@dataclass(slots=True)
class SkillsRepo:
    """A discovered repository and its configuration; close it when done."""

    store: Store
    config: Config

    @property
    def root(self) -> Path:
        return self.store.root

    def __enter__(self) -> SkillsRepo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.store.close()

    def relpath(self, path: str | Path) -> str:
        """A user's path (relative to the current folder) as a repo-relative posix path."""
        full = Path(path).absolute()
        # Resolve the folders above, not the last part: it may be a symlink we must report.
        real = Path(os.path.realpath(full.parent)) / full.name if full.name else full.resolve()
        try:
            text = real.relative_to(self.root).as_posix()
        except ValueError:
            raise UsageError(f"{path} is outside the repository {self.root}") from None
        return "" if text == "." else text


def read_config(root: Path) -> Config:
    """The configuration in the work tree (defaults when the file is absent)."""
    path = root / CONFIG_FILE
    if not path.exists():
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from None
    return parse_config(text, str(path))


def open_repo(start: Path) -> SkillsRepo:
    """The skills repository holding `start`, with its configuration loaded and checked."""
    store = Store.discover(start)
    try:
        config = read_config(store.root)
    except BaseException:
        store.close()
        raise
    return SkillsRepo(store, config)

"""Open a skills repository for a command: the git store, signed with the identity and dates
its commits carry, plus the validated configuration."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gitcurator.config import CONFIG_FILE, Config, parse_config
from gitcurator.errors import ConfigError, UsageError
from gitcurator.store import Identity, Signature, Store


@dataclass(slots=True)
class SkillsRepo:
    """A discovered repository and its configuration; close it when done."""

    store: Store
    config: Config

    @property
    def root(self) -> Path:
        """The top folder of the work tree."""
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


def commit_signature(store: Store, environ: Mapping[str, str] | None = None) -> Signature:
    """Who a command's commits are by and when, as git decides it: GIT_COMMITTER_* (else
    GIT_AUTHOR_*) name and email, else user.name / user.email, else gitcurator's own; the
    dates GIT_AUTHOR_DATE and GIT_COMMITTER_DATE (else the clock at each commit)."""
    env = os.environ if environ is None else environ
    name = env.get("GIT_COMMITTER_NAME") or env.get("GIT_AUTHOR_NAME")
    email = env.get("GIT_COMMITTER_EMAIL") or env.get("GIT_AUTHOR_EMAIL")
    if not name:
        name = store.config_value("user", "name") or "gitcurator"
    if not email:
        email = store.config_value("user", "email") or "gitcurator@localhost"
    return Signature(
        Identity(name, email), env.get("GIT_AUTHOR_DATE", ""), env.get("GIT_COMMITTER_DATE", "")
    )


def open_store(start: Path) -> Store:
    """The repository holding `start`, signed for committing (see commit_signature)."""
    store = Store.discover(start)
    store.signature = commit_signature(store)
    return store


def init_store(path: Path) -> tuple[Store, bool]:
    """The repository at `path`, created if there is none (and whether it was), signed."""
    store, created = Store.init(path)
    store.signature = commit_signature(store)
    return store, created


def open_repo(start: Path) -> SkillsRepo:
    """The skills repository holding `start`, with its configuration loaded and checked."""
    store = open_store(start)
    try:
        config = read_config(store.root)
    except BaseException:
        store.close()
        raise
    return SkillsRepo(store, config)

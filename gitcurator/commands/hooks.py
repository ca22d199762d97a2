"""`gitcurator hooks install`: put the plain git pre-commit hook in place."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

from gitcurator.errors import CuratorError
from gitcurator.library import open_repo
from gitcurator.output import Result

MARKER = "gitcurator pre-commit hook"


def hook_source() -> Path:
    """The shipped hook script: inside the installed package, else the source checkout's."""
    packaged = Path(__file__).parent.parent / "hooks" / "pre-commit"
    return (
        packaged
        if packaged.exists()
        else Path(__file__).parent.parent.parent / "hooks" / "pre-commit"
    )


def hook_text(python: str) -> str:
    """The hook script bound to the interpreter that has gitcurator installed."""
    text = hook_source().read_text(encoding="utf-8")
    return text.replace('GITCURATOR_PYTHON=""', f'GITCURATOR_PYTHON="{python}"', 1)


def install(start: Path, *, force: bool = False) -> Result:
    """Write .git/hooks/pre-commit (or core.hooksPath's); keep a foreign hook unless forced."""
    with open_repo(start) as repo:
        hooks_dir = repo.store.hooks_dir()
    target = hooks_dir / "pre-commit"
    try:
        _install(hooks_dir, target, force)
    except OSError as exc:
        # A hooks folder that is a file or cannot be written, a pre-commit that is a folder.
        raise CuratorError(
            f"cannot install {target}: {exc.strerror or exc}; make {hooks_dir} a folder you "
            "can write (core.hooksPath in git's config sets it) and run this again"
        ) from None
    return Result(
        text=f"installed {target}: commits of skills that fail validation are now refused"
    )


def _install(hooks_dir: Path, target: Path, force: bool) -> None:
    if target.exists() and MARKER not in target.read_text(encoding="utf-8", errors="replace"):
        if not force:
            raise CuratorError(
                f"{target} already exists and is not gitcurator's; run `gitcurator hooks "
                "install --force` to replace it (the old one is kept as pre-commit.backup), "
                "or use the pre-commit framework with the `gitcurator-validate` hook"
            )
        shutil.copy2(target, hooks_dir / "pre-commit.backup")
    hooks_dir.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    try:
        tmp.write_text(hook_text(sys.executable), encoding="utf-8")
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise

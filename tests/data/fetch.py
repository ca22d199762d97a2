"""Fetch third-party test data into tests/data/cache/ (gitignored, never committed).

Usage: python tests/data/fetch.py

`hermes_skills()` gives the 177 skills of the hermes-agent 0.19.0 source distribution (MIT),
laid out as a library: the sdist's `skills/` and `optional-skills/` folders side by side.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

CACHE = Path(__file__).resolve().parent / "cache"

HERMES_VERSION = "0.19.0"
HERMES_SDIST = f"hermes_agent-{HERMES_VERSION}.tar.gz"
# Pinned so the tests' expectations (177 skills, 18 name/folder mismatches) meet the same files.
HERMES_SHA256 = "ac986bede64a2785436676c0ea084ec586574f8cb00a9d047e095b435d3e21c0"
HERMES_SKILL_COUNT = 177
HERMES_FOLDERS = ("skills", "optional-skills")


class FetchError(RuntimeError):
    """Test data could not be fetched (offline, registry down, tampered file)."""


def hermes_skills() -> Path:
    """The hermes-agent skills as a library folder, downloading and extracting on first use."""
    home = CACHE / f"hermes-{HERMES_VERSION}"
    library = home / "library"
    if library.is_dir():
        return library
    sdist = _download_hermes(home)
    _extract_library(sdist, library)
    return library


def _download_hermes(home: Path) -> Path:
    sdist = home / HERMES_SDIST
    if sdist.exists() and _sha256(sdist) == HERMES_SHA256:
        return sdist
    home.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=home) as tmp:
        cmd = [
            sys.executable, "-m", "pip", "download", f"hermes-agent=={HERMES_VERSION}",
            "--no-deps", "--no-binary", ":all:", "--disable-pip-version-check", "-d", tmp,
        ]  # fmt: skip
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise FetchError(f"cannot download hermes-agent {HERMES_VERSION}: {exc}") from None
        got = Path(tmp) / HERMES_SDIST
        if done.returncode != 0 or not got.exists():
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            raise FetchError(
                f"cannot download hermes-agent=={HERMES_VERSION} from PyPI (offline?): "
                f"`{' '.join(cmd[2:])}` failed: {tail}"
            )
        digest = _sha256(got)
        if digest != HERMES_SHA256:
            raise FetchError(
                f"{HERMES_SDIST} has sha256 {digest}, expected {HERMES_SHA256}; "
                "the registry served a different file, refusing to use it"
            )
        got.replace(sdist)
    return sdist


def _extract_library(sdist: Path, library: Path) -> None:
    """Extract the skill folders next to `library`, then move them in place in one rename.

    A run killed halfway leaves only a temporary folder, never a half-filled library.
    """
    top = sdist.name.removesuffix(".tar.gz")
    wanted = tuple(f"{top}/{folder}/" for folder in HERMES_FOLDERS)
    with tempfile.TemporaryDirectory(dir=library.parent) as tmp, tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(wanted)]
        # filter='data' refuses absolute paths, `..`, links leaving the folder and device files.
        tar.extractall(tmp, members=members, filter="data")
        staging = Path(tmp) / "library"
        staging.mkdir()
        for folder in HERMES_FOLDERS:
            shutil.move(Path(tmp) / top / folder, staging / folder)
        try:
            staging.rename(library)
        except OSError:
            if not library.is_dir():  # a concurrent run may have won the race; else re-raise
                raise


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main() -> int:
    try:
        library = hermes_skills()
    except FetchError as exc:
        print(f"fetch.py: {exc}", file=sys.stderr)
        return 1
    count = sum(1 for _ in library.rglob("SKILL.md"))
    print(f"hermes-agent {HERMES_VERSION}: {count} SKILL.md files under {library}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

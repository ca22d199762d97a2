"""Fetch third-party test data into tests/data/cache/ (gitignored, never committed).

Usage: python tests/data/fetch.py [NAME ...]   (no NAME: every library that can be had)

Each library is one function returning a folder laid out as a skill library, extracted on
first use into tests/data/cache/<name>/library and pinned so tests meet the same files:

- from PyPI (pinned by version and sha256): `hermes_skills()`, the 177 skills of the
  hermes-agent 0.19.0 sdist (MIT), its `skills/` and `optional-skills/` side by side;
- from the npm registry (version and sha256, through `npm pack`): `ai_labs_skills()` and
  `cc_sdd_skills()`;
- from GitHub (a pinned commit, exported with `git archive` from a local bare mirror; CI has
  no GitHub, so these are there only where a mirror is): `anthropic_skills()`,
  `openai_skills()`, `vercel_skills()`, `superpowers_skills()`, `scientific_skills()`,
  `composio_skills()`. Mirrors are looked up as $GITCURATOR_MIRRORS/<owner>+<repo>/repo
  (default /work/.mirror) or <owner>+<repo>.git.

Every function raises FetchError, saying why, when its library cannot be had; tests skip.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

CACHE = Path(__file__).resolve().parent / "cache"
DEFAULT_MIRRORS = Path("/work/.mirror")

HERMES_VERSION = "0.19.0"
HERMES_SDIST = f"hermes_agent-{HERMES_VERSION}.tar.gz"
# Pinned so the tests' expectations (177 skills, 18 name/folder mismatches) meet the same files.
HERMES_SHA256 = "ac986bede64a2785436676c0ea084ec586574f8cb00a9d047e095b435d3e21c0"
HERMES_SKILL_COUNT = 177
HERMES_FOLDERS = ("skills", "optional-skills")


class FetchError(RuntimeError):
    """Test data could not be fetched (offline, registry down, tampered file, no mirror)."""


# NamedTuple, not a dataclass: the tests load this file by path, outside sys.modules.
class GitHubPin(NamedTuple):
    """A public repository at one commit; `skill_files` is its count of SKILL.md files."""

    repo: str
    commit: str
    skill_files: int
    license: str


class NpmPin(NamedTuple):
    """An npm package tarball; `folder` is where its skills sit inside `package/`."""

    package: str
    version: str
    sha256: str
    folder: str
    skill_files: int
    license: str


GITHUB = {
    "anthropic": GitHubPin(
        "anthropics/skills", "9d2f1ae187231d8199c64b5b762e1bdf2244733d", 18, "Apache-2.0/mixed"
    ),
    "openai": GitHubPin("openai/skills", "f6b8344b4e519f964d8884d6f60b57991f3f4993", 10, "mixed"),
    "vercel": GitHubPin(
        "vercel-labs/agent-skills", "b9c8ee0643d87d3c5a953d1e22382ff2ead39229", 7, "MIT"
    ),
    "superpowers": GitHubPin(
        "obra/superpowers", "44c9b2d6e889982ac18c27d05a19fefe335194e1", 14, "MIT"
    ),
    "scientific": GitHubPin(
        "K-Dense-AI/claude-scientific-skills",
        "899a51bfbd63218153b272c9459dcb4a7ae88da6",
        134,
        "MIT/mixed",
    ),
    "composio": GitHubPin(
        "ComposioHQ/awesome-claude-skills",
        "f2b5e29bc315f04c8e09591ba275f4c4f7d4b8fe",
        864,
        "Apache-2.0/mixed",
    ),
}

NPM = {
    "ai-labs": NpmPin(
        "ai-labs-claude-skills",
        "2.0.1",
        "cb1d41920bf61ec241c304f2578b3462513293a4ff450f1129ed978f8823f719",
        "dist/skills",
        27,
        "MIT",
    ),
    # cc-sdd ships the same 17 skills once per agent; Claude Code's copy is the library.
    "cc-sdd": NpmPin(
        "cc-sdd",
        "3.0.2",
        "ae5a247b357e61139d1f154dcdc67996e5da783f931c99dd450cf03569441fe4",
        "templates/agents/claude-code-skills/skills",
        17,
        "MIT",
    ),
}


# -- one function per library --------------------------------------------------------------


def hermes_skills() -> Path:
    """The hermes-agent skills as a library folder, downloading and extracting on first use."""
    home = CACHE / f"hermes-{HERMES_VERSION}"
    library = home / "library"
    if library.is_dir():
        return library
    sdist = _download_hermes(home)
    _extract_library(sdist, library)
    return library


def anthropic_skills() -> Path:
    """anthropics/skills at its pin: Anthropic's published skills (document skills and more)."""
    return github_library("anthropic")


def openai_skills() -> Path:
    """openai/skills at its pin: skills under .curated/, .experimental/ and .system/."""
    return github_library("openai")


def vercel_skills() -> Path:
    """vercel-labs/agent-skills at its pin."""
    return github_library("vercel")


def superpowers_skills() -> Path:
    """obra/superpowers at its pin."""
    return github_library("superpowers")


def scientific_skills() -> Path:
    """K-Dense-AI/claude-scientific-skills at its pin: 134 skills on scientific packages."""
    return github_library("scientific")


def composio_skills() -> Path:
    """ComposioHQ/awesome-claude-skills at its pin: 864 skills, mostly one templated
    `<app>-automation` skill per Composio app."""
    return github_library("composio")


def ai_labs_skills() -> Path:
    """The 27 skills of the npm package ai-labs-claude-skills 2.0.1 (MIT)."""
    return npm_library("ai-labs")


def cc_sdd_skills() -> Path:
    """The 17 Claude Code skills of the npm package cc-sdd 3.0.2 (MIT)."""
    return npm_library("cc-sdd")


LIBRARIES: dict[str, Callable[[], Path]] = {
    "hermes": hermes_skills,
    "ai-labs": ai_labs_skills,
    "cc-sdd": cc_sdd_skills,
    "anthropic": anthropic_skills,
    "openai": openai_skills,
    "vercel": vercel_skills,
    "superpowers": superpowers_skills,
    "scientific": scientific_skills,
    "composio": composio_skills,
}


def library(name: str) -> Path:
    """The library called `name` (a key of LIBRARIES)."""
    try:
        get = LIBRARIES[name]
    except KeyError:
        raise FetchError(f"no library named {name!r}; known: {', '.join(LIBRARIES)}") from None
    return get()


# -- GitHub, through a local mirror ---------------------------------------------------------


def github_library(name: str) -> Path:
    """A pinned GitHub library, exported from its mirror with `git archive` on first use."""
    pin = GITHUB[name]
    library = CACHE / name / "library"
    if library.is_dir():
        return library
    mirror = _mirror(pin.repo)
    with tempfile.TemporaryDirectory(dir=_home(library)) as tmp:
        archive = Path(tmp) / "export.tar"
        cmd = ["git", "--git-dir", str(mirror), "archive", "--format=tar", pin.commit]
        with archive.open("wb") as out:
            done = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, text=False)
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace").strip()
            raise FetchError(f"cannot export {pin.repo}@{pin.commit[:12]} from {mirror}: {why}")
        staging = Path(tmp) / "library"
        with tarfile.open(archive) as tar:
            _extract(tar, staging)
        _count(staging, pin.skill_files, f"{pin.repo}@{pin.commit[:12]}")
        _publish(staging, library)
    return library


def _extract(
    tar: tarfile.TarFile, dest: str | Path, members: list[tarfile.TarInfo] | None = None
) -> None:
    """Extract with tarfile's 'data' filter (no absolute paths, no `..`, no links leaving the
    folder, no device files); Pythons before 3.11.4 (Debian 12's 3.11.2) lack the filter, so
    there the same refusals are made here first."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(dest, members=members, filter="data")
        return
    chosen = tar.getmembers() if members is None else members
    for m in chosen:
        parts = Path(m.name).parts
        link = Path(m.linkname).parts if (m.issym() or m.islnk()) else ()
        if m.name.startswith("/") or ".." in parts or m.isdev() or ".." in link:
            raise FetchError(f"refusing the archive member {m.name!r}: it would leave the folder")
        if link and m.linkname.startswith("/"):
            raise FetchError(f"refusing the archive member {m.name!r}: an absolute link")
    tar.extractall(dest, members=chosen)


def _mirror(repo: str) -> Path:
    root = Path(os.environ.get("GITCURATOR_MIRRORS") or DEFAULT_MIRRORS)
    folder = repo.replace("/", "+")
    for candidate in (root / folder / "repo", root / f"{folder}.git", root / folder):
        if (candidate / "HEAD").is_file():
            return candidate
    raise FetchError(
        f"no mirror of github.com/{repo} under {root} (set GITCURATOR_MIRRORS to a folder "
        f"holding {folder}/repo, a bare clone); CI has no GitHub, so this library is skipped"
    )


# -- npm, through `npm pack` ----------------------------------------------------------------


def npm_library(name: str) -> Path:
    """A pinned npm package's skill folder, downloaded with `npm pack` on first use."""
    pin = NPM[name]
    library = CACHE / name / "library"
    if library.is_dir():
        return library
    home = _home(library)
    tarball = home / f"{pin.package}-{pin.version}.tgz"
    if not (tarball.exists() and _sha256(tarball) == pin.sha256):
        _npm_pack(pin, tarball)
    prefix = f"package/{pin.folder}/"
    with tempfile.TemporaryDirectory(dir=home) as tmp, tarfile.open(tarball) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(prefix)]
        _extract(tar, tmp, members)
        staging = Path(tmp) / "package" / pin.folder
        _count(staging, pin.skill_files, f"{pin.package}@{pin.version}")
        _publish(staging, library)
    return library


def _npm_pack(pin: NpmPin, tarball: Path) -> None:
    spec = f"{pin.package}@{pin.version}"
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError(f"cannot download {spec}: npm is not installed")
    with tempfile.TemporaryDirectory(dir=tarball.parent) as tmp:
        cmd = [npm, "pack", spec, "--silent", "--pack-destination", tmp]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise FetchError(f"cannot download {spec}: {exc}") from None
        got = list(Path(tmp).glob("*.tgz"))
        if done.returncode != 0 or len(got) != 1:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            raise FetchError(f"cannot download {spec} from npm (offline?): {tail}")
        _check_sha256(got[0], pin.sha256)
        got[0].replace(tarball)


# -- PyPI: hermes-agent ---------------------------------------------------------------------


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
        _check_sha256(got, HERMES_SHA256)
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
        _extract(tar, tmp, members)
        staging = Path(tmp) / "library"
        staging.mkdir()
        for folder in HERMES_FOLDERS:
            shutil.move(Path(tmp) / top / folder, staging / folder)
        _publish(staging, library)


# -- shared steps ---------------------------------------------------------------------------


def _home(library: Path) -> Path:
    library.parent.mkdir(parents=True, exist_ok=True)
    return library.parent


def _publish(staging: Path, library: Path) -> None:
    """Move a complete `staging` folder to `library` in one rename: a run killed halfway
    leaves only a temporary folder, never a half-filled library."""
    try:
        staging.rename(library)
    except OSError:
        if not library.is_dir():  # a concurrent run may have won the race; else re-raise
            raise


def _count(folder: Path, expected: int, what: str) -> None:
    found = sum(1 for _ in folder.rglob("SKILL.md"))
    if found != expected:
        raise FetchError(f"{what} holds {found} SKILL.md files, its pin says {expected}")


def _check_sha256(path: Path, expected: str) -> None:
    digest = _sha256(path)
    if digest != expected:
        raise FetchError(
            f"{path.name} has sha256 {digest}, expected {expected}; "
            "the registry served a different file, refusing to use it"
        )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main(argv: list[str]) -> int:
    """Fetch the named libraries (all when none is named); 1 if a named one failed."""
    names = argv or list(LIBRARIES)
    failed = False
    for name in names:
        try:
            folder = library(name)
        except FetchError as exc:
            print(f"fetch.py: {name}: {exc}", file=sys.stderr)
            failed = failed or bool(argv)
            continue
        count = sum(1 for _ in folder.rglob("SKILL.md"))
        print(f"{name}: {count} SKILL.md files under {folder}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""A pack whose bytes changed on disk: every command says the store is damaged and how to
find what (exit 1, no crash log), where each exited 3 with a crash log."""

from __future__ import annotations

import os
import re
import subprocess
import zlib
from pathlib import Path

import pytest
from dulwich.errors import ApplyDeltaError, ChecksumMismatch
from support.repos import git, run_cli, write_skill

from gitcurator.error_handler import guarded
from gitcurator.store.damage import DAMAGED_STORE


def _damaged_blob(tmp_path: Path) -> Path:
    """A library packed by git, one SKILL.md's compressed bytes in the pack flipped (its
    zlib checksum no longer holds), every cache gone so commands read it."""
    root = tmp_path / "lib"
    for name in ("alpha", "beta", "gamma"):
        write_skill(root, name, description=f"Use when {name} work comes up.")
    assert run_cli("init", str(root), "--quiet").code == 0
    git("gc", "-q", cwd=root)
    blob = git("rev-parse", "HEAD:beta/SKILL.md", cwd=root).stdout.strip()
    (pack,) = (root / ".git/objects/pack").glob("*.pack")
    listed = git("verify-pack", "-v", str(pack.with_suffix(".idx")), cwd=root).stdout
    # `sha type size size-in-pack offset [depth base]`: the object's last bytes are the
    # end of its zlib stream (its Adler-32), which flipped fails zlib's own check.
    fields = next(line.split() for line in listed.splitlines() if line.startswith(blob))
    at = int(fields[4]) + int(fields[3]) - 2
    os.chmod(pack, 0o644)
    data = bytearray(pack.read_bytes())
    data[at] ^= 0xFF
    pack.write_bytes(bytes(data))
    for cache in (root / ".git/gitcurator").glob("*.json"):
        cache.unlink()
    return root


@pytest.mark.parametrize("command", [["run", "--dry-run"], ["search", "beta"]])
def test_a_damaged_pack_stops_a_command_naming_the_damage_and_git_fsck(
    tmp_path: Path, command: list[str]
) -> None:
    root = _damaged_blob(tmp_path)
    head = git("rev-parse", "HEAD", cwd=root).stdout
    result = run_cli(*command, "-C", str(root))
    assert result.code == 1, result
    assert "this repository's object store is damaged" in result.err
    assert "git fsck" in result.err and "internal error" not in result.err
    assert git("rev-parse", "HEAD", cwd=root).stdout == head
    fsck = subprocess.run(["git", "fsck"], cwd=root, capture_output=True, check=False)
    assert fsck.returncode != 0  # git agrees the store is damaged


def test_only_damage_is_taken_for_damage(capsys: pytest.CaptureFixture[str]) -> None:
    def raising(exc: Exception) -> int:
        raise exc

    damages = [zlib.error("flipped"), ApplyDeltaError("flipped"), ChecksumMismatch(b"a", b"b")]
    assert {type(d) for d in damages} == set(DAMAGED_STORE)
    for damage in damages:
        assert guarded(lambda d=damage: raising(d)) == 1  # type: ignore[misc]
    assert capsys.readouterr().err.count("object store is damaged") == len(damages)
    assert guarded(lambda: raising(ValueError("a bug of ours"))) == 3
    log = re.search(r"details: (\S+)", capsys.readouterr().err)
    assert log
    Path(log.group(1)).unlink()

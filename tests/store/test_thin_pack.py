"""store.thin_pack: a fetched pack is stored as git's index-pack --fix-thin stores it (every
object readable by git and dulwich, the bases a thin pack leaves out appended), and a damaged
one is refused with nothing stored."""

from __future__ import annotations

import errno
import io
import itertools
import subprocess
import tracemalloc
import zlib
from pathlib import Path

import pytest
from dulwich.repo import Repo
from support.packs import (
    blob_name,
    delta_of,
    entry_header,
    pack_of,
    ref_delta,
    varint,
    whole_blob,
)
from support.repos import git

from gitcurator.errors import StoreError
from gitcurator.store import pack_writer, thin_pack


def _pair(tmp_path: Path, commits: int = 6) -> tuple[Path, Path, str]:
    """A repository `src` with `commits` commits of slowly changing files, a clone `dst` of
    its first commit, and that commit's id."""
    src = tmp_path / "src"
    src.mkdir()
    git("init", "-q", "-b", "main", str(src), cwd=tmp_path)
    lines = [f"line {i} of a skill, long enough for git to make deltas of it\n" for i in range(300)]
    first = ""
    for n in range(commits):
        for f in range(5):
            folder = src / f"skill-{f}"
            folder.mkdir(exist_ok=True)
            text = "".join(lines[: 200 + n * 10 + f])
            (folder / "SKILL.md").write_text(f"---\nname: skill-{f}\n---\n{text}")
        git("add", "-A", cwd=src)
        git("commit", "-q", "-m", f"commit {n}", cwd=src)
        if n == 0:
            first = git("rev-parse", "HEAD", cwd=src).stdout.strip()
    dst = tmp_path / "dst"
    git("clone", "-q", "--no-local", str(src), str(dst), cwd=tmp_path)
    git("reset", "-q", "--hard", first, cwd=dst)
    git("reflog", "expire", "--expire=now", "--all", cwd=dst)
    git("gc", "-q", "--prune=now", cwd=dst)
    return src, dst, first


def _thin(src: Path, since: str, *options: str) -> bytes:
    """What `git fetch` would be sent: a thin pack of what `main` holds beyond `since`."""
    revs = f"main\n^{since}\n".encode()
    return subprocess.run(
        ["git", "pack-objects", "--thin", "--stdout", "--revs", "-q", *options],
        cwd=src,
        input=revs,
        capture_output=True,
        check=True,
    ).stdout


def _stored(repo: Path, data: bytes) -> None:
    dulwich_repo = Repo(str(repo))
    try:
        thin_pack.store_fetched_pack(dulwich_repo.object_store, io.BytesIO(data).read, len(data))
    finally:
        dulwich_repo.close()


def _packs(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".git" / "objects" / "pack").iterdir())


@pytest.mark.parametrize("options", [(), ("--no-delta-base-offset",), ("--depth=4095",)])
def test_a_thin_pack_from_git_is_completed_and_git_reads_every_object(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    src, dst, first = _pair(tmp_path)
    data = _thin(src, first, *options)
    _stored(dst, data)
    # Everything main holds is here now, whole, and git finds nothing wrong with the pack.
    assert git("fsck", "--strict", "--no-dangling", cwd=dst).returncode == 0
    tip = git("rev-parse", "main", cwd=src).stdout.strip()
    listed = git("rev-list", "--objects", tip, cwd=src).stdout.split("\n")
    wanted = sorted({line.split(" ")[0] for line in listed if line})
    batch = "\n".join(wanted) + "\n"
    theirs = subprocess.run(
        ["git", "cat-file", "--batch"], cwd=src, input=batch.encode(), capture_output=True
    ).stdout
    ours = subprocess.run(
        ["git", "cat-file", "--batch"], cwd=dst, input=batch.encode(), capture_output=True
    ).stdout
    assert ours == theirs and b"missing" not in ours
    new = [p for p in _packs(dst) if p.endswith(".pack")]
    for pack in new:
        verified = git("verify-pack", str(dst / ".git" / "objects" / "pack" / pack), cwd=dst)
        assert verified.returncode == 0


def test_the_bases_a_thin_pack_leaves_out_are_appended_and_indexed(tmp_path: Path) -> None:
    src, dst, first = _pair(tmp_path)
    data = _thin(src, first)
    before = set(_packs(dst))
    _stored(dst, data)
    (added,) = [p for p in set(_packs(dst)) - before if p.endswith(".idx")]
    listing = subprocess.run(
        ["git", "show-index"],
        input=(dst / ".git" / "objects" / "pack" / added).read_bytes(),
        capture_output=True,
        check=True,
    )
    indexed = len(listing.stdout.splitlines())
    sent = int.from_bytes(data[8:12], "big")
    # A thin pack: more objects indexed than sent (the bases, appended whole), as git's
    # index-pack --fix-thin leaves it.
    assert indexed > sent


def test_bases_held_as_loose_objects_are_found_after_the_packed_ones(tmp_path: Path) -> None:
    # The bases are looked for in the store's packs first, then anywhere: here every object
    # of the clone is loose, so each base comes from the second look.
    src, dst, first = _pair(tmp_path)
    pack_dir = dst / ".git" / "objects" / "pack"
    for pack in [p for p in pack_dir.iterdir() if p.suffix == ".pack"]:
        data = pack.read_bytes()
        pack.unlink()
        pack.with_suffix(".idx").unlink()
        subprocess.run(["git", "unpack-objects", "-q"], cwd=dst, input=data, check=True)
    assert not _packs(dst)
    data = _thin(src, first)
    _stored(dst, data)
    assert git("fsck", "--strict", "--no-dangling", cwd=dst).returncode == 0
    (added,) = [p for p in _packs(dst) if p.endswith(".idx")]
    listing = subprocess.run(
        ["git", "show-index"], input=(pack_dir / added).read_bytes(), capture_output=True
    )
    assert len(listing.stdout.splitlines()) > int.from_bytes(data[8:12], "big")
    tip = git("rev-parse", "main", cwd=src).stdout.strip()
    assert git("rev-list", "--objects", tip, cwd=dst).returncode == 0


def test_a_pack_with_a_wrong_checksum_is_refused_and_nothing_stored(tmp_path: Path) -> None:
    src, dst, first = _pair(tmp_path)
    data = bytearray(_thin(src, first))
    data[len(data) // 2] ^= 0xFF
    before = _packs(dst)
    with pytest.raises(thin_pack.DamagedPack, match="checksum"):
        _stored(dst, bytes(data))
    assert _packs(dst) == before


@pytest.mark.parametrize(
    ("entries", "count", "words"),
    [
        ([whole_blob(b"one\n")], 2, "damaged at byte"),  # the header counts one too many
        ([whole_blob(b"one\n"), whole_blob(b"two\n")], 1, "more than its header counts"),
        ([whole_blob(b"one\n")[:-3]], None, "damaged at byte"),  # cut short
        ([b"\x83\x05" + zlib.compress(b"x")], None, "damaged at byte"),  # a size that lies
        ([b"\x50" + zlib.compress(b"")], None, "damaged at byte"),  # object type 5
    ],
)
def test_a_damaged_pack_is_refused_naming_what_is_wrong(
    tmp_path: Path, entries: list[bytes], count: int | None, words: str
) -> None:
    _src, dst, _first = _pair(tmp_path, commits=1)
    before = _packs(dst)
    with pytest.raises(thin_pack.DamagedPack, match=words):
        _stored(dst, pack_of(entries, count))
    assert _packs(dst) == before


def test_a_delta_against_an_object_nobody_holds_is_refused(tmp_path: Path) -> None:
    _src, dst, _first = _pair(tmp_path, commits=1)
    before = _packs(dst)
    with pytest.raises(thin_pack.DamagedPack, match="neither the pack nor this repository"):
        _stored(dst, pack_of([ref_delta(b"a base nobody has\n" * 4, b"the text\n")]))
    # A cycle: each a delta of the other, neither whole anywhere.
    a, b = b"text of A\n" * 5, b"text of B\n" * 5
    with pytest.raises(thin_pack.DamagedPack, match="delta cycle"):
        _stored(dst, pack_of([ref_delta(b, a), ref_delta(a, b)]))
    assert _packs(dst) == before


def test_a_broken_delta_is_refused(tmp_path: Path) -> None:
    _src, dst, _first = _pair(tmp_path, commits=1)
    base = b"the base text\n" * 4
    delta = delta_of(base, b"a target\n")
    # The delta's first field names its base's size: make it lie.
    forged = bytes([delta[0] + 1]) + delta[1:]
    bad = entry_header(7, len(forged)) + blob_name(base) + zlib.compress(forged)
    with pytest.raises(thin_pack.DamagedPack):
        _stored(dst, pack_of([whole_blob(base), bad]))


def test_a_chain_of_600_deltas_in_any_order_resolves_without_recursion(tmp_path: Path) -> None:
    _src, dst, _first = _pair(tmp_path, commits=1)
    texts = [b"base text of a skill\n" * 20 + b"edit\n" * i for i in range(601)]
    links = [ref_delta(a, b) for a, b in itertools.pairwise(texts)]
    # Deltas before their bases, the whole object last: git accepts that order too.
    _stored(dst, pack_of([*reversed(links), whole_blob(texts[0])]))
    for text in (texts[-1], texts[300]):
        shown = git("cat-file", "-p", blob_name(text).hex(), cwd=dst)
        assert shown.stdout.encode() == text
    assert git("fsck", "--strict", cwd=dst).returncode == 0


@pytest.mark.parametrize("limit", ["FAST_LIMIT", "HELD_LIMIT"])
def test_a_pack_over_a_limit_is_stored_by_dulwich(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str
) -> None:
    # A large pack, or one inflating to much (deep chains of large files, very compressible
    # bytes), is left to dulwich, which holds one object at a time.
    src, dst, first = _pair(tmp_path)
    monkeypatch.setattr(thin_pack, limit, 1000)
    handed = []
    dulwich_stores = thin_pack._stored_by_dulwich
    monkeypatch.setattr(
        thin_pack, "_stored_by_dulwich", lambda *a: handed.append(1) or dulwich_stores(*a)
    )
    _stored(dst, _thin(src, first))
    assert handed == [1]
    assert git("fsck", "--strict", "--no-dangling", cwd=dst).returncode == 0
    tip = git("rev-parse", "main", cwd=src).stdout.strip()
    assert git("cat-file", "-t", tip, cwd=dst).stdout.strip() == "commit"


def test_an_object_inflating_past_its_header_stops_there(tmp_path: Path) -> None:
    # 50 MB of zeros compress to 50 KB; the header says 10 bytes. Inflating it all before
    # comparing would hold 50 MB (a 32 MB pack so made: 32 GB).
    _src, dst, _first = _pair(tmp_path, commits=1)
    bomb = entry_header(3, 10) + zlib.compress(bytes(50 * 1024 * 1024), 9)
    data = pack_of([bomb])
    tracemalloc.start()
    try:
        with pytest.raises(thin_pack.DamagedPack, match="larger than its header"):
            _stored(dst, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(data) + 1024 * 1024


def test_a_delta_claiming_a_terabyte_is_refused_not_a_crash(tmp_path: Path) -> None:
    _src, dst, _first = _pair(tmp_path, commits=1)
    base = b"x"
    delta = varint(1) + varint(1 << 40) + bytes([0x90, 1])  # copy 1 byte; claims 2^40
    entry = entry_header(7, len(delta)) + blob_name(base) + zlib.compress(delta)
    with pytest.raises(thin_pack.DamagedPack):
        _stored(dst, pack_of([whole_blob(base), entry]))


def test_a_pack_folder_that_takes_no_files_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src, dst, first = _pair(tmp_path)

    def refused(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(pack_writer.tempfile, "mkstemp", refused)
    before = _packs(dst)
    with pytest.raises(StoreError, match=r"cannot write new objects into .*pack: Read-only"):
        _stored(dst, _thin(src, first))
    assert _packs(dst) == before

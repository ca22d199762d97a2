"""store.pack_reader: packed objects read directly give exactly what dulwich gives, or dulwich
answers (loose objects, packs it cannot read, damaged packs, missing objects)."""

from __future__ import annotations

import hashlib
import itertools
import random
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from dulwich.repo import Repo
from support.packs import blob_name, entry_header, pack_of, ref_delta
from support.repos import git

from gitcurator.store import Store, pack_reader


def _history(repo: Path, commits: int = 12) -> None:
    """A repository whose files change a little each commit: packed, they become deltas."""
    git("init", "-q", "-b", "main", str(repo), cwd=repo.parent)
    rng = random.Random(7)
    lines = [
        f"line {i} of a skill's instructions, long enough to be worth a delta\n" for i in range(400)
    ]
    for n in range(commits):
        for f in range(6):
            rng.shuffle(lines)
            folder = repo / f"skill-{f}"
            folder.mkdir(exist_ok=True)
            (folder / "SKILL.md").write_text(f"---\nname: skill-{f}\n---\n" + "".join(lines[:300]))
        # One large file that grows: inflating it needs more than the first window.
        (repo / "big.txt").write_text("".join(lines) * (n + 20))
        git("add", "-A", cwd=repo)
        git("commit", "-q", "-m", f"commit {n}", cwd=repo)


def _packed(tmp_path: Path, commits: int) -> Path:
    """A repository of `commits` commits, packed by `git gc`."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=commits)
    git("gc", "-q", cwd=repo)
    return repo


def _outcomes(repo: Repo, names: list[Any]) -> list[object]:
    """What each read gives: the object, or the type of the error raised."""
    out: list[object] = []
    for name in names:
        try:
            out.append(repo.object_store.get_raw(name))
        except Exception as exc:  # the comparison is of what is raised
            out.append(type(exc))
    return out


def _compare(path: Path, names: list[Any] | None = None) -> tuple[pack_reader.PackReader, int]:
    """The reader installed over `path` reads `names` (default: every object) as dulwich
    does; it and how many reads it handed to dulwich."""
    plain = Repo(str(path))
    fast = Repo(str(path))
    try:
        wanted = names if names is not None else sorted(plain.object_store)
        reader = pack_reader.install(fast.object_store)
        assert reader is not None
        handed = [0]
        dulwich_read = reader.fallback

        def counted(name: Any) -> tuple[int, bytes]:
            handed[0] += 1
            return dulwich_read(name)

        reader.fallback = counted
        expected = _outcomes(plain, wanted)
        assert _outcomes(fast, wanted) == expected
        return reader, handed[0]
    finally:
        plain.close()
        fast.close()


@pytest.mark.parametrize(
    "repack",
    [
        ["gc", "-q", "--aggressive"],  # offset deltas, long chains
        ["-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq"],  # deltas by name
        ["-c", "pack.indexVersion=1", "repack", "-adfq"],  # an index this reader leaves
    ],
)
def test_every_object_reads_as_dulwich_reads_it(tmp_path: Path, repack: list[str]) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo)
    git(*repack, cwd=repo)
    deltas = git(
        "verify-pack", "-v", *map(str, (repo / ".git/objects/pack").glob("*.idx")), cwd=repo
    )
    assert any(len(line.split()) >= 7 for line in deltas.stdout.splitlines())  # deltas exist
    reader, handed = _compare(repo)
    if "pack.indexVersion=1" in repack:
        assert reader.packs == [] and handed > 0
    else:
        assert len(reader.packs) == 1 and handed == 0


def test_the_dict_and_the_bisection_find_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _packed(tmp_path, 4)
    names = sorted(Repo(str(repo)).object_store)
    missing = [b"0" * 40, b"f" * 40, bytes(20), b"\xff" * 20, b"not hex!" * 5]
    for after in (0, 10**9):
        monkeypatch.setattr(pack_reader, "_DICT_AFTER", after)
        reader, handed = _compare(repo, names + missing)
        assert handed == len(missing)
        assert (reader.packs[0].slots is None) == (after > 0)


def test_loose_objects_and_packs_written_later_are_read(tmp_path: Path) -> None:
    repo = _packed(tmp_path, 3)
    with Store(Repo(str(repo))) as store:
        before = set(store.repo.object_store)
        _history_more = repo / "skill-0" / "SKILL.md"
        _history_more.write_text("---\nname: skill-0\n---\nnew text\n")
        git("commit", "-qam", "loose", cwd=repo)
        after = sorted(set(Repo(str(repo)).object_store) - before)
        assert after  # the new commit's objects are loose
        loose = [store.repo.object_store.get_raw(name) for name in after]
        git("repack", "-dq", cwd=repo)  # now in a new pack, and no longer loose
        assert not list((repo / ".git/objects").glob("??/*"))
        assert [store.repo.object_store.get_raw(name) for name in after] == loose


def test_a_damaged_pack_is_left_to_dulwich(tmp_path: Path) -> None:
    repo = _packed(tmp_path, 3)
    pack = next((repo / ".git/objects/pack").glob("*.pack"))
    data = bytearray(pack.read_bytes())
    for at in range(200, len(data) - 40, 997):
        data[at] ^= 0x5A  # scattered through objects, whole and deltas
    pack.chmod(0o644)
    pack.write_bytes(bytes(data))
    plain = Repo(str(repo))
    outcomes = _outcomes(plain, sorted(plain.object_store))
    plain.close()
    assert any(isinstance(o, type) for o in outcomes) and any(
        isinstance(o, tuple) for o in outcomes
    )
    _reader, handed = _compare(repo)
    assert handed > 0


def test_store_close_unmaps_and_a_second_store_shares_the_reader(tmp_path: Path) -> None:
    repo = _packed(tmp_path, 2)
    dulwich_repo = Repo(str(repo))
    first = Store(dulwich_repo)
    second = Store(dulwich_repo)
    reader = pack_reader.install(dulwich_repo.object_store)
    assert reader is not None and reader.packs
    assert first._packs is second._packs is reader
    first.close()
    assert reader.packs == []


# Hand-made packs: what git accepts but does not write itself, and damage.


def _write_pack(repo: Path, entries: list[bytes], names: list[bytes], stem: str) -> Path:
    """A pack of `entries` (the objects `names`, in order) and its version 2 index."""
    pack = pack_of(entries)
    offsets, at = [], 12
    for entry in entries:
        offsets.append(at)
        at += len(entry)
    crcs = [zlib.crc32(entry) for entry in entries]
    table = sorted(zip(names, offsets, crcs, strict=True))
    fan_out = [sum(1 for n, _, _ in table if n[0] <= b) for b in range(256)]
    idx = b"\377tOc" + struct.pack(">I", 2) + struct.pack(">256I", *fan_out)
    idx += b"".join(n for n, _, _ in table) + b"".join(struct.pack(">I", c) for *_, c in table)
    idx += b"".join(struct.pack(">I", off) for _, off, _ in table) + pack[-20:]
    idx += hashlib.sha1(idx).digest()
    folder = repo / ".git" / "objects" / "pack"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.pack").write_bytes(pack)
    (folder / f"{stem}.idx").write_bytes(idx)
    return folder / f"{stem}.pack"


def _empty_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    return repo


def test_a_chain_of_600_deltas_by_name_reads_without_recursion(tmp_path: Path) -> None:
    # git reads such a pack (other writers make them); a reader recursing once a link would
    # pass Python's frame limit.
    repo = _empty_repo(tmp_path)
    texts = [b"base text of a skill\n" * 20 + b"edit\n" * i for i in range(601)]
    entries = [entry_header(3, len(texts[0])) + zlib.compress(texts[0])]
    entries += [ref_delta(a, b) for a, b in itertools.pairwise(texts)]
    _write_pack(repo, entries, [blob_name(t) for t in texts], "pack-chain")
    assert git("fsck", "--strict", cwd=repo).returncode == 0
    reader, handed = _compare(repo, [blob_name(texts[-1]), blob_name(texts[300])])
    assert handed == 0 and len(reader.packs) == 1


def test_delta_cycles_are_named_by_dulwich(tmp_path: Path) -> None:
    repo = _empty_repo(tmp_path)
    a, b, c = b"text of A\n" * 5, b"text of B\n" * 5, b"text of C\n" * 5
    # A's base is B, B's base is A; C's base is C itself.
    entries = [ref_delta(b, a), ref_delta(a, b), ref_delta(c, c)]
    names = [blob_name(a), blob_name(b), blob_name(c)]
    _write_pack(repo, entries, names, "pack-cycle")
    _reader, handed = _compare(repo, names)
    assert handed == 3  # each read handed over, and raising what dulwich raises


def test_a_base_kept_outside_the_packs_is_asked_of_dulwich(tmp_path: Path) -> None:
    # A thin pack's base (dulwich appends them to what it fetches; a hand-made pack may not).
    repo = _empty_repo(tmp_path)
    base, top = b"a base kept loose\n" * 4, b"a base kept loose\n" * 4 + b"and more\n"
    (repo / "base.txt").write_bytes(base)
    git("hash-object", "-w", "base.txt", cwd=repo)
    _write_pack(repo, [ref_delta(base, top)], [blob_name(top)], "pack-thin")
    dulwich_repo = Repo(str(repo))
    reader = pack_reader.install(dulwich_repo.object_store)
    assert reader is not None and len(reader.packs) == 1
    assert dulwich_repo.object_store.get_raw(blob_name(top).hex().encode()) == (3, top)
    dulwich_repo.close()


def test_an_index_of_another_pack_is_not_used(tmp_path: Path) -> None:
    repo = _empty_repo(tmp_path)
    one, other = b"the object the index names\n", b"something else entirely!!\n"
    pack = _write_pack(
        repo, [entry_header(3, len(one)) + zlib.compress(one)], [blob_name(one)], "p"
    )
    pack.write_bytes(pack.read_bytes())  # keep it, then put another pack under its name
    body = b"PACK" + struct.pack(">II", 2, 1) + entry_header(3, len(other)) + zlib.compress(other)
    pack.write_bytes(body + hashlib.sha1(body).digest())
    reader, handed = _compare(repo, [blob_name(one)])
    assert reader.packs == [] and handed == 1


def test_names_other_than_bytes_go_to_dulwich(tmp_path: Path) -> None:
    repo = _packed(tmp_path, 1)
    head = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    _reader, handed = _compare(repo, [head, b" " * 40, b"\xff" * 40, b"abc"])
    assert handed == 4


def test_packs_removed_by_a_repack_are_unmapped(tmp_path: Path) -> None:
    repo = _packed(tmp_path, 1)
    with Store(Repo(str(repo))) as store:
        reader = store._packs
        assert reader is not None
        for n in range(4):
            (repo / "skill-0" / "SKILL.md").write_text(f"---\nname: skill-0\n---\nround {n}\n")
            git("commit", "-qam", f"round {n}", cwd=repo)
            new = git("rev-parse", "HEAD", cwd=repo).stdout.strip().encode()
            git("repack", "-adq", cwd=repo)
            assert store.repo.object_store.get_raw(new)[0] == 1
            assert len(reader.packs) == 1  # the old pack went with the repack


def test_a_base_larger_than_an_eighth_of_the_bound_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pack_reader, "_BASES_BYTES", 64 * 1024)
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=6)  # big.txt: 40-60 KB versions, deltas of each other
    git("gc", "-q", "--aggressive", cwd=repo)
    dulwich_repo = Repo(str(repo))
    reader = pack_reader.install(dulwich_repo.object_store)
    assert reader is not None
    names = sorted(dulwich_repo.object_store)
    for name in names:
        dulwich_repo.object_store.get_raw(name)
        assert reader._bases_bytes <= 64 * 1024
        assert all(len(raw) <= 8 * 1024 for _kind, raw in reader._bases.values())
    dulwich_repo.close()

"""store.pack_reader: packed objects read directly give exactly what dulwich gives, or dulwich
answers (loose objects, packs it cannot read, damaged packs, missing objects)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from dulwich.repo import Repo
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
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=4)
    git("gc", "-q", cwd=repo)
    names = sorted(Repo(str(repo)).object_store)
    missing = [b"0" * 40, b"f" * 40, bytes(20), b"\xff" * 20, b"not hex!" * 5]
    for after in (0, 10**9):
        monkeypatch.setattr(pack_reader, "_DICT_AFTER", after)
        reader, handed = _compare(repo, names + missing)
        assert handed == len(missing)
        assert (reader.packs[0].slots is None) == (after > 0)


def test_loose_objects_and_packs_written_later_are_read(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=3)
    git("gc", "-q", cwd=repo)
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
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=3)
    git("gc", "-q", cwd=repo)
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
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=2)
    git("gc", "-q", cwd=repo)
    dulwich_repo = Repo(str(repo))
    first = Store(dulwich_repo)
    second = Store(dulwich_repo)
    reader = pack_reader.install(dulwich_repo.object_store)
    assert reader is not None and reader.packs
    assert first._packs is second._packs is reader
    first.close()
    assert reader.packs == []


def test_a_delta_base_outside_the_packs_is_asked_of_dulwich(tmp_path: Path) -> None:
    # A thin pack's base (dulwich appends them to a fetched pack, so only a hand-made pack
    # would miss one): read through dulwich, which finds it loose.
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=2)
    git("gc", "-q", cwd=repo)
    (repo / "loose.txt").write_text("a base kept loose\n")
    sha = git("hash-object", "-w", "loose.txt", cwd=repo).stdout.strip().encode()
    dulwich_repo = Repo(str(repo))
    reader = pack_reader.install(dulwich_repo.object_store)
    assert reader is not None
    assert reader._base_named(bytes.fromhex(sha.decode()), 0) == (3, b"a base kept loose\n")
    dulwich_repo.close()


def test_a_chain_deeper_than_the_reader_recurses_is_left_to_dulwich(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _history(repo, commits=12)
    git("repack", "-adfq", "--depth=50", "--window=50", cwd=repo)
    monkeypatch.setattr(pack_reader, "_MAX_DEPTH", 2)
    _reader, handed = _compare(repo)
    assert handed > 0  # the deep ones, read by dulwich, and equal

"""records_cache: a flush decodes only the records its events name, and the records cache it
moves to its notes commit is what loading every note gives."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from support.repos import corrupt_note, git, note_key

from gitcurator.errors import CuratorError
from gitcurator.library import open_repo
from gitcurator.statefiles import ABSORBED_NAMES, RECORDS_CACHE
from gitcurator.store import Store
from gitcurator.telemetry import ledger, names_index, notes_records, recording, records_cache
from gitcurator.telemetry.records import HostCounters, UsageRecord

T = TypeVar("T")


def _on(repo: Path, call: Callable[[Store], T]) -> T:
    with open_repo(repo) as r:
        return call(r.store)


def _loaded(repo: Path) -> notes_records.Loaded:
    return _on(repo, notes_records.load_notes)


def _flush(repo: Path) -> ledger.FlushResult:
    return _on(repo, ledger.flush)


def _cached_line(repo: Path, name: str) -> tuple[Path, str, str]:
    """The records cache after a use of two skills is flushed and loaded: its path, its
    text and `name`'s line in it."""
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    _flush(repo)
    _loaded(repo)
    path = repo / ".git" / "gitcurator" / RECORDS_CACHE
    text = path.read_text()
    return path, text, next(x for x in text.split("\n") if x.startswith(f'"{name}":'))


def _cold(repo: Path) -> notes_records.Loaded:
    state = repo / ".git" / "gitcurator"
    (state / RECORDS_CACHE).unlink(missing_ok=True)
    return _loaded(repo)


def test_the_moved_cache_is_what_a_cold_load_reads(repo: Path) -> None:
    for name in ("pdf-extract", "docker-build", "helm-deploy"):
        recording.record("use", [name], repo=repo)
    _flush(repo)
    _loaded(repo)  # the cache, for this notes commit
    for _ in range(3):
        recording.record("use", ["pdf-extract"], repo=repo)
    recording.record("view", ["helm-deploy"], repo=repo)
    result = _flush(repo)
    assert result.events == 4 and result.skills == 2
    cache = json.loads((repo / ".git" / "gitcurator" / RECORDS_CACHE).read_text())
    assert cache["notes"] == result.commit, "moved to the flush's commit"
    warm = _loaded(repo)
    cold = _cold(repo)
    assert warm.records == cold.records and warm.problems == cold.problems
    assert warm.records["pdf-extract"].use_count == 4


def test_an_unreadable_note_is_kept_and_reported_as_a_full_load_does(repo: Path) -> None:
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    _flush(repo)
    corrupt_note(repo, "docker-build", "{not json")
    assert "docker-build" in _loaded(repo).unreadable
    recording.record("use", ["docker-build"], repo=repo)
    result = _flush(repo)
    assert any("unreadable" in w for w in result.warnings)
    warm = _loaded(repo)
    cold = _cold(repo)
    assert warm.records == cold.records and warm.unreadable == cold.unreadable == {}


def test_the_absorbed_names_follow_the_flush(repo: Path) -> None:
    recording.record("use", ["pdf-extract"], repo=repo)
    _flush(repo)
    notes, absorbed = _on(repo, names_index.absorbed_names)
    recording.record("use", ["pdf-extract"], repo=repo)
    result = _flush(repo)
    doc = json.loads((repo / ".git" / "gitcurator" / ABSORBED_NAMES).read_text())
    assert doc["notes"] == result.commit != notes and doc["absorbed"] == absorbed == {}


def test_a_plain_git_notes_edit_during_a_flush_is_refused_not_overwritten(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # git takes no gitcurator lock: its notes commit can land after the flush read the
    # records and before it writes. The flush must then refuse (compare-and-swap from the
    # commit it read), not write its records over git's edit.
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    _flush(repo)
    _loaded(repo)  # the records cache: the flush reads its records from it
    recording.record("use", ["pdf-extract"], repo=repo)
    real_read = records_cache.read_subset

    def read_then_git(*args: Any) -> records_cache.Subset | None:
        subset = real_read(*args)
        corrupt_note(repo, "pdf-extract", '{"edited": "by git"}')
        return subset

    monkeypatch.setattr(records_cache, "read_subset", read_then_git)
    with pytest.raises(CuratorError, match="moved"):
        _flush(repo)
    monkeypatch.setattr(records_cache, "read_subset", real_read)
    key = note_key(repo, "pdf-extract")
    shown = git("notes", "--ref=gitcurator", "show", key, cwd=repo).stdout
    assert "by git" in shown, "git's edit is still the note"
    result = _flush(repo)  # the events were kept for the next flush
    assert result.events == 1
    warm = _loaded(repo)
    assert warm.records == _cold(repo).records
    assert git("fsck", "--strict", cwd=repo).returncode == 0


def test_a_flush_after_plain_git_rewound_or_edited_the_notes_caches_what_a_cold_load_reads(
    repo: Path,
) -> None:
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    older = _flush(repo).commit
    assert older is not None
    recording.record("use", ["pdf-extract", "helm-deploy"], repo=repo)
    _flush(repo)
    _loaded(repo)  # the cache, for the newer commit
    git("update-ref", "refs/notes/gitcurator", older, cwd=repo)
    recording.record("view", ["docker-build"], repo=repo)
    _flush(repo)
    warm = _loaded(repo)
    assert warm.records == _cold(repo).records
    assert warm.records["pdf-extract"].use_count == 1 and "helm-deploy" not in warm.records
    corrupt_note(repo, "helm-deploy", "{by git")  # a note git added, for a skill
    recording.record("use", ["pdf-extract"], repo=repo)
    _flush(repo)
    warm = _loaded(repo)
    cold = _cold(repo)
    assert warm.records == cold.records and warm.unreadable == cold.unreadable
    assert warm.problems == cold.problems
    assert git("fsck", "--strict", cwd=repo).returncode == 0


@pytest.mark.parametrize("damage", ["nested", "torn", "number"])
def test_a_cache_of_the_older_layout_or_with_a_damaged_record_is_not_used(
    repo: Path, damage: str
) -> None:
    """Records are cached as their JSON text; a cache holding them nested (the layout before)
    or a record's text damaged is read as no cache, by a flush and by a load alike."""
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    _flush(repo)
    _loaded(repo)
    path = repo / ".git" / "gitcurator" / RECORDS_CACHE
    cache = json.loads(path.read_text())
    texts = cache["records"]
    if damage == "nested":
        cache["records"] = {name: json.loads(text) for name, text in texts.items()}
    else:
        texts["docker-build"] = texts["docker-build"][:-5] if damage == "torn" else 7
    path.write_text(json.dumps(cache))
    assert _loaded(repo).records == _cold(repo).records
    path.write_text(json.dumps(cache))
    recording.record("use", ["pdf-extract"], repo=repo)
    assert _flush(repo).skills == 1
    warm = _loaded(repo)
    assert warm.records == _cold(repo).records
    assert warm.records["pdf-extract"].use_count == 2
    assert warm.records["docker-build"].use_count == 1


def _texts(count: int) -> dict[str, str]:
    return {f"skill-{i}": records_cache.cache_text(_record(f"skill-{i}", i)) for i in range(count)}


def _record(name: str, uses: int) -> UsageRecord:
    return UsageRecord(name, hosts={"h": HostCounters(uses, 0, None, None)})


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_cache_is_json_one_record_a_line_under_a_digest_of_the_rest(
    tmp_path: Path, count: int
) -> None:
    texts = _texts(count)
    path = tmp_path / "cache.json"
    path.write_text(records_cache.document("abc", texts, ["p"], {"x": "1" * 40}))
    text = path.read_text()
    doc = json.loads(text)
    assert (
        doc.pop("sha1") == hashlib.sha1(text[text.index(',"problems"') + 1 :].encode()).hexdigest()
    )
    assert doc == {
        "notes": "abc",
        "records": texts,
        "problems": ["p"],
        "unreadable": {"x": "1" * 40},
    }
    assert len(text.splitlines()) == count + 1 + (count == 0)
    names = ["skill-0", "skill-2", "absent"]
    by_line = records_cache.read_subset(path, "abc", names)
    assert by_line is not None
    assert set(by_line.records) == {"skill-0", "skill-2"} & set(texts)
    assert (by_line.problems, by_line.unreadable) == (["p"], {"x": "1" * 40})
    assert records_cache.read_subset(path, "another", names) is None
    path.write_text(json.dumps({**doc, "sha1": "0" * 40}))  # one line: another layout
    assert records_cache.read_subset(path, "abc", names) is None
    assert records_cache.read_whole(path, "abc") is None


def test_a_count_edited_by_hand_under_the_same_notes_commit_never_reaches_the_notes(
    repo: Path,
) -> None:
    """The cache keeps its notes commit's key and its layout, one count changed: the digest
    no longer holds, so a load reads the notes and a flush does not write the edit into them."""
    path, text, line = _cached_line(repo, "docker-build")
    assert '\\"use_count\\":1' in line
    path.write_text(text.replace(line, line.replace('\\"use_count\\":1', '\\"use_count\\":500')))
    assert _loaded(repo).records["docker-build"].use_count == 1
    path.write_text(text.replace(line, line.replace('\\"use_count\\":1', '\\"use_count\\":500')))
    recording.record("use", ["docker-build"], repo=repo)
    assert _flush(repo).skills == 1
    assert _cold(repo).records["docker-build"].use_count == 2


def test_a_moved_cache_keeps_the_untouched_lines_and_reads_as_a_fresh_one(tmp_path: Path) -> None:
    texts = _texts(5)
    path = tmp_path / "cache.json"
    path.write_text(records_cache.document("abc", texts, [], {}))
    subset = records_cache.read_subset(path, "abc", ["skill-1"])
    assert subset is not None
    changed = {"skill-1": _record("skill-1", 99), "new-one": _record("new-one", 1)}
    records_cache.write_moved(path, subset, "def", changed, ["q"], {})
    texts.update({n: records_cache.cache_text(r) for n, r in changed.items()})
    assert path.read_text() == records_cache.document("def", texts, ["q"], {})


@pytest.mark.parametrize("name", ["caf\u00e9", "a\udce9b", "\u65e5\u672c"])
def test_a_cache_with_a_name_not_ascii_is_read_by_line_and_moved(tmp_path: Path, name: str) -> None:
    """The document spells such a name with escapes (`caf\\u00e9`): a flush still reads
    the cache by line (it read every record again, and the next cache the same way)."""
    texts = {**_texts(2), name: records_cache.cache_text(_record(name, 7))}
    path = tmp_path / "cache.json"
    path.write_text(records_cache.document("abc", texts, [], {}))
    subset = records_cache.read_subset(path, "abc", [name, "skill-1"])
    assert subset is not None
    assert subset.records == {name: _record(name, 7), "skill-1": _record("skill-1", 1)}
    records_cache.write_moved(path, subset, "def", {name: _record(name, 8)}, [], {})
    texts[name] = records_cache.cache_text(_record(name, 8))
    assert path.read_text() == records_cache.document("def", texts, [], {})
    again = records_cache.read_subset(path, "def", [name])
    assert again is not None and again.records == {name: _record(name, 8)}


def test_a_name_spelled_otherwise_under_a_right_digest_is_not_read_by_line(
    tmp_path: Path,
) -> None:
    """`skill\\u002d0` is skill-0 to JSON: beside skill-0's own line, the two are one record
    (JSON keeps the last), so a reader by line must not take either for it."""
    texts = _texts(3)
    good = records_cache.document("abc", texts, [], {})
    body = good.split("\n", 1)[1]
    line = next(x for x in body.split("\n") if x.startswith('"skill-1":'))
    other = '"skill\\u002d0":' + json.dumps(records_cache.cache_text(_record("skill-0", 50)))
    forged = body.replace(line.rstrip(","), other)
    rest = good[good.index('"problems"') :].replace(body, forged)
    path = tmp_path / "cache.json"
    path.write_text(f'{{"notes":"abc","sha1":"{hashlib.sha1(rest.encode()).hexdigest()}",{rest}')
    whole = json.loads(path.read_text())["records"]
    assert records_cache.from_cache_text(whole["skill-0"]).use_count == 50
    assert records_cache.read_whole(path, "abc") is not None, "the digest holds"
    got = records_cache.read_subset(path, "abc", ["skill-0"])
    if got is not None:  # only ever what the JSON itself says
        assert got.records == {"skill-0": _record("skill-0", 50)}


@pytest.mark.parametrize(
    "damage",
    [
        "cut",
        "cut-line",
        "torn-text",
        "two-on-a-line",
        "two-on-a-line-spaced",
        "hidden-duplicate",
        "line-opened-otherwise",
        "escaped-name",
        "not-utf8",
        "head",
    ],
)
def test_a_damaged_line_cache_is_never_read_as_other_records(tmp_path: Path, damage: str) -> None:
    texts = _texts(4)
    path = tmp_path / "cache.json"
    good = records_cache.document("abc", texts, [], {})
    lines = good.split("\n")
    if damage == "cut":
        bad = good[: len(good) // 2]
    elif damage == "cut-line":
        bad = "\n".join(lines[:2] + lines[3:])  # the lines left still close the document
    elif damage == "torn-text":
        bad = good.replace(lines[2], lines[2][:-9] + '",')
    elif damage == "two-on-a-line":
        bad = good.replace(",\n", ",", 1)
    elif damage == "two-on-a-line-spaced":  # still JSON, with skill-1 on skill-0's line
        bad = good.replace(",\n", " , ", 1)
    elif damage == "hidden-duplicate":  # JSON takes the last skill-0: the one hidden on a line
        forged = lines[4].split(":", 1)[1][: -len("}}")]
        bad = good.replace(lines[2], lines[2][:-1] + ' , "skill-0" : ' + forged + ",", 1)
    elif damage == "line-opened-otherwise":
        bad = good.replace('\n"skill-1"', '\nx"skill-1"', 1)
    elif damage == "escaped-name":
        bad = good.replace('"skill-0"', '"skill\\u002d0"', 1)
    elif damage == "head":
        bad = good.replace('"notes":"abc"', '"notes":"abc","x":1', 1)
    else:
        bad = good.replace("skill-0", "skill-\udcff0", 1)
    path.write_bytes(bad.encode("utf-8", "surrogateescape"))
    try:
        whole = json.loads(bad)
    except ValueError:
        whole = None
    for names in [list(texts), *([n] for n in texts)]:
        got = records_cache.read_subset(path, "abc", names)
        if got is not None:  # only ever what the JSON itself says, for every name asked
            assert whole is not None
            assert got.records == {
                n: records_cache.from_cache_text(t)
                for n, t in whole["records"].items()
                if n in names
            }


def test_a_hand_joined_cache_line_loses_no_record_of_the_flushed_skill(repo: Path) -> None:
    """Two lines of the cache joined by hand (` , `: still JSON) hide the second record from
    a reader cutting the text at line ends: the flush must not start that skill afresh."""
    path, text, line = _cached_line(repo, "pdf-extract")
    path.write_text(text.replace(",\n" + line, " , " + line, 1))
    assert json.loads(path.read_text()) == json.loads(text), "still the same JSON document"
    second = "pdf-extract"
    recording.record("use", [second], repo=repo)
    assert _flush(repo).skills == 1
    warm = _loaded(repo)
    assert warm.records == _cold(repo).records
    assert warm.records[second].use_count == 2, "the use before is still counted"


def test_a_record_on_another_skills_line_is_not_folded_into(repo: Path) -> None:
    """A cache edited to hold pdf-extract's record under docker-build: a flush of
    docker-build's use reads its record from the notes (hardening: main trusted it too)."""
    recording.record("use", ["pdf-extract"], repo=repo)
    recording.record("use", ["pdf-extract"], repo=repo)
    recording.record("use", ["docker-build"], repo=repo)
    _flush(repo)
    _loaded(repo)
    path = repo / ".git" / "gitcurator" / RECORDS_CACHE
    cache = json.loads(path.read_text())
    cache["records"]["docker-build"] = cache["records"]["pdf-extract"]
    for text in (records_cache.document(cache["notes"], cache["records"], [], {}), None):
        path.write_text(text if text is not None else json.dumps(cache))
        recording.record("use", ["docker-build"], repo=repo)
        _flush(repo)
        note = git("notes", "--ref=gitcurator", "show", note_key(repo, "docker-build"), cwd=repo)
        assert json.loads(note.stdout)["skill"] == "docker-build"
        assert _cold(repo).records["docker-build"].use_count == (2 if text else 3)
        _loaded(repo)
        cache["notes"] = json.loads(path.read_text())["notes"]

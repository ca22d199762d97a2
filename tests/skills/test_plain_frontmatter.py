"""skills.plain_frontmatter: where it answers, it answers exactly what PyYAML's loaders give."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.real_libraries import fetch_module, real_library

from gitcurator.skills import document
from gitcurator.skills.document import SkillParseError, parse_skill_md
from gitcurator.skills.plain_frontmatter import plain_mapping

KEYS = ["name", "description", "license", "allowed-tools", "_x", "a_b", "yes", "on", "No",
        "null", "true", "Y", "x" * 128, "x" * 129, "<<", "k1", "1k", "-k", "key ", "é"]  # fmt: skip
VALUES = [
    "pdf-extract", "Extract text from PDFs, when asked.", "MIT", "a  b", "a ", "x" * 300,
    "1", "1.5", "1e3", "+1", "-1", "0x1F", "0o17", "1_000", "1:20", ".inf", "NaN", "nan",
    "2024-01-01", "2024-01-01 10:00:00", "yes", "No", "ON", "off", "y", "n", "null", "Null",
    "~", "true", "False", "=", "<<", "a: b", "a:b", "a #b", "a#b", "a:", "[a]", "a [b]",
    "{a}", "a {b}", "'q'", "''", "'", "'it''s'", "'a' # c", "'a: #b'", '"q"', '""', '"',
    '"a\\nb"', '"say "hi""', "it's", 'say "hi"', "x, y", "- item", "-x", "? x", "?x", "&a",
    "*a", "!tag x", "!!str 1", "|", ">", "%x", "@x", "`x`", "a ! b", "a & b", "a | b",
    "a > b", "a % b", "a @ b", "a ` b", "a \\ b", "é", "naïve", "a\tb", "a\x85b", "a\u2028b",
    "a\ufeffb", "a\x7fb", "a\x01b", "a ---", "...", "a ...", "a,b", "(x)", "x)", "a/b",
    "http://x.y/z", "C:\\x", "a - b", "a -- b", "a-", "7z", "0", "00", "0.", ".5", "e",
]  # fmt: skip
LINES = ["", "   ", "# comment", "key:", "key:  value", "  indented: x", "- x", "...",
         "key : v", "key:\tv", "key: v # c", "---", "%YAML 1.1", "k: [a,", "  b]"]  # fmt: skip


def _yaml(lines: list[str], loader: Any) -> Any:
    return yaml.load("\n".join(lines), Loader=loader)


def _agrees(lines: list[str]) -> bool:
    """plain_mapping(lines) is None or what both YAML loaders make of them; True if it
    answered."""
    fast = plain_mapping(lines)
    if fast is None:
        return False
    for loader in (yaml.CSafeLoader, yaml.SafeLoader):
        slow = _yaml(lines, loader)
        assert isinstance(slow, dict), (lines, slow)
        assert list(fast.items()) == [(k, v) for k, v in slow.items()], lines
        assert all(type(k) is str and type(v) is str for k, v in slow.items()), lines
    return True


def test_every_key_and_value_shape_agrees_with_yaml() -> None:
    answered = 0
    for key, value in itertools.product(KEYS, VALUES):
        for sep in (": ", ":   "):
            answered += _agrees([f"{key}{sep}{value}"])
            answered += _agrees(["name: a", "", f"{key}{sep}{value}", "description: d"])
    # The shapes real SKILL.md files have are answered, not left to YAML.
    assert _agrees(["name: pdf-extract", "description: Extract text, when asked.", "license: MIT"])
    assert _agrees(["name: 'a'", 'description: "b: #c"', "", "name: again"])
    assert answered > 500


@pytest.mark.parametrize("line", LINES)
def test_other_lines_agree_or_go_to_yaml(line: str) -> None:
    for lines in ([line], ["name: a", line], [line, "description: d"]):
        try:
            _agrees(lines)
        except yaml.YAMLError:
            assert plain_mapping(lines) is None, lines  # YAML refuses it: so must we


def test_random_lines_agree_with_yaml() -> None:
    rng = random.Random(15)
    alphabet = "ab yn01:#'\"-_.,!&*[]{}|>%@`\\\t~=<?é"
    answered = 0
    for _ in range(4000):
        lines = []
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(["name", "description", "x", "on", "k-1"])
            first = rng.choice("abyn01'\"")  # a start the fast path may take
            value = first + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
            lines.append(f"{key}: {value}")
        try:
            answered += _agrees(lines)
        except yaml.YAMLError:
            assert plain_mapping(lines) is None, lines
    assert answered > 300


def _yaml_only(data: bytes, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patched:
        patched.setattr(document, "plain_mapping", lambda lines: None)
        return _parsed(data)


def _parsed(data: bytes) -> Any:
    try:
        doc = parse_skill_md(data)
    except SkillParseError as exc:
        return ("error", exc.message, exc.line, exc.kind)
    return (list(doc.frontmatter.items()), doc.body, doc.body_line, doc.had_bom, doc.crlf)


@pytest.mark.parametrize("name", sorted(fetch_module().LIBRARIES))
def test_real_libraries_parse_as_yaml_alone_parses_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    files: list[Path] = sorted(real_library(name).rglob("SKILL.md"))
    answered = 0
    for path in files:
        data = path.read_bytes()
        assert _parsed(data) == _yaml_only(data, monkeypatch), path
        text = data.decode("utf-8", "replace").replace("\r\n", "\n").split("\n")
        end = next((i for i in range(1, len(text)) if text[i].rstrip() == "---"), 0)
        answered += plain_mapping(text[1:end]) is not None
    assert files, name
    print(f"{name}: {answered} of {len(files)} SKILL.md read without YAML")

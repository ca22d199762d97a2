"""What a SKILL.md body points at: Markdown link targets and scripts run directly (pure)."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

# The body is searched whole (regexes at C speed), then matches inside code are dropped:
# a per-line Python loop over thousands of skills costs more than everything else together.
# Two patterns, each written with a literal prefix (not `{3,}`): only then does the regex
# engine skip ahead with a fast substring search instead of trying every position.
_FENCE_STARTS = (re.compile(r"```+"), re.compile(r"~~~+"))
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
# `[text](dest "title")` (and so `![alt](dest)`): one level of nested brackets in the text and of
# balanced parentheses in the destination, as CommonMark allows and real files use.
_INLINE_LINK = re.compile(
    r"\[(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*\]\(\s*"
    r"(<[^<>\n]*>|[^\s()<]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)
_REFERENCE_DEF = re.compile(r" {0,3}\[([^\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)")
_HTML_LINK = re.compile(r"<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
# Fence languages whose lines are commands an agent runs; an unlabelled fence counts too.
_SHELL_LANGS = frozenset(
    {"", "bash", "sh", "shell", "zsh", "ksh", "fish", "console", "terminal", "shell-session"}
    | {"sh-session", "shellsession"}
)
_OPERATORS = "();<>|&"
# Shell words: operators, or runs of plain characters, escapes and quoted strings.
_SHELL_TOKEN = re.compile(r"""[();<>|&]+|(?:[^\s'"();<>|&\\]+|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+""")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# Words that run the next word as the command: the script after them still needs its exec bit.
_WRAPPERS = frozenset({"sudo", "exec", "time", "nohup", "env", "command", "then", "do", "else"})
_RUN_BEFORE_SPAN = re.compile(r"\b(?:run|execute|invoke)\s*:?\s*$", re.I)


def link_targets(body: str, first_line: int) -> list[tuple[int, str]]:
    """(line, destination) of every Markdown/HTML link and image outside code, as written."""
    return [(first_line + body.count("\n", 0, at), dest) for at, dest in link_destinations(body)]


def link_destinations(body: str) -> list[tuple[int, str]]:
    """(offset, destination) of every Markdown/HTML link and image outside code: the offset
    of the destination itself in `body` (inside `<...>` when so written), for rewriting it."""
    if "](" not in body and "]:" not in body and "<" not in body:
        return []
    doc = _body(body)
    found: list[tuple[int, int, str]] = []
    matches = [(m, 1) for m in _INLINE_LINK.finditer(body)]
    matches += [(m, 1) for m in _HTML_LINK.finditer(body)] if "<" in body else []
    matches += [(m, 2) for m in _reference_definitions(body)]
    for match, group in matches:
        if doc.in_prose(match.start()) and not doc.in_code_span(match.start()):
            dest, at = match.group(group), match.start(group)
            at += dest.startswith("<")
            dest = dest.removeprefix("<").removesuffix(">")
            found.append((match.start(), at, dest))
    return [(at, dest) for _, at, dest in sorted(found)]


def prose_code_spans(body: str) -> list[tuple[int, str]]:
    """(offset, content) of every `inline code` span outside fenced blocks and comments."""
    if "`" not in body:
        return []
    doc = _body(body)
    return [
        (m.start(2), m.group(2))
        for m in _CODE_SPAN.finditer(body)
        if "\n" not in m.group(0) and doc.in_prose(m.start())
    ]


def in_prose(body: str, pos: int, *, code_spans: bool = False) -> bool:
    """Whether `pos` of `body` is outside fenced code and comments (and, unless `code_spans`,
    outside inline code too)."""
    doc = _body(body)
    return doc.in_prose(pos) and (code_spans or not doc.in_code_span(pos))


@dataclass(frozen=True, slots=True)
class ScriptWord:
    """A word of code naming a script, and how the body uses it.

    `how` is "shell" (the command of a shell code line or of a `$ ` console line in prose:
    run as written), "told" (inline code that prose says to run), "inline" (inline code with
    arguments, which may be run as written) or "argument" (not the command, as in
    `python scripts/x.py`: run through an interpreter).
    """

    line: int
    word: str
    how: str


def commands_naming(marker: str, body: str, first_line: int) -> list[ScriptWord]:
    """Every word of code containing `marker`: in shell code blocks and console lines, and in
    inline code that prose says to run ("Run `scripts/x.sh`") or that carries arguments
    (`scripts/x.sh --all`), each with how it is used."""
    if marker not in body:
        return []
    doc = _body(body)
    found: list[ScriptWord] = []
    seen_lines: set[int] = set()
    at = body.find(marker)
    while at != -1:
        start = body.rfind("\n", 0, at) + 1
        end = body.find("\n", at)
        end = len(body) if end == -1 else end
        if start not in seen_lines:
            seen_lines.add(start)
            number = first_line + body.count("\n", 0, start)
            for how, words in doc.code_on_line(start, end):
                commands = set(_command_words(words))
                for word in _words(words):
                    if marker in word:
                        used = how if word in commands else "argument"
                        found.append(ScriptWord(number, word, used))
        at = body.find(marker, end)
    return found


def _reference_definitions(body: str) -> Iterator[re.Match[str]]:
    """`[label]: destination` lines (footnotes `[^1]: text` excluded)."""
    at = body.find("]:")
    while at != -1:
        start = body.rfind("\n", 0, at) + 1
        match = _REFERENCE_DEF.match(body, start)
        if match is not None and not match.group(1).startswith("^"):
            yield match
        end = body.find("\n", at)
        at = -1 if end == -1 else body.find("]:", end)


@functools.lru_cache(maxsize=2)
def _body(text: str) -> _Body:
    """One analysis per body for both callers (a str caches its hash, so the lookup is cheap)."""
    return _Body(text)


class _Body:
    """A Markdown body with its fenced code blocks and HTML comments located."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.blocks: list[tuple[int, int, str]] = []  # (start, end, language) of code
        opened: tuple[str, int, str] | None = None  # (fence, content start, language)
        fences = sorted(
            (m for pattern in _FENCE_STARTS for m in pattern.finditer(text)),
            key=lambda m: m.start(),
        )
        for match in fences:
            start = text.rfind("\n", 0, match.start()) + 1
            if text[start : match.start()].strip(" \t"):
                continue  # not at the start of its line
            end = text.find("\n", match.end())
            end = len(text) if end == -1 else end
            fence = text[match.start() : match.end()]
            rest = text[match.end() : end]
            if opened is None:
                if fence[0] == "`" and "`" in rest:
                    continue  # inline code at the start of a line, not a fence
                language = rest.strip().split(" ", 1)[0].split("{", 1)[0].lower()
                opened = (fence, end + 1, language)
            elif fence.startswith(opened[0]) and not rest.strip():
                self.blocks.append((opened[1], start, opened[2]))
                opened = None
        if opened is not None:
            self.blocks.append((opened[1], len(text), opened[2]))
        self.comments = (
            [(m.start(), m.end()) for m in _COMMENT.finditer(text)] if "<!--" in text else []
        )
        self._block_starts = [start for start, _, _ in self.blocks]

    def block_at(self, pos: int) -> tuple[int, int, str] | None:
        """The fenced code block holding `pos`, if any."""
        i = bisect.bisect_right(self._block_starts, pos) - 1
        if i >= 0 and pos < self.blocks[i][1]:
            return self.blocks[i]
        return None

    def in_prose(self, pos: int) -> bool:
        """Outside fenced code blocks and HTML comments."""
        if self.block_at(pos) is not None:
            return False
        return not any(start <= pos < end for start, end in self.comments)

    def in_code_span(self, pos: int) -> bool:
        """Inside `inline code` on its line."""
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        line = self.text[start : len(self.text) if end == -1 else end]
        return "`" in line and any(
            m.start() <= pos - start < m.end() for m in _CODE_SPAN.finditer(line)
        )

    def code_on_line(self, start: int, end: int) -> list[tuple[str, str]]:
        """(how, code) of the shell code on the line at [start, end): the whole line in a
        shell block or after a `$ ` prompt in prose ("shell"), else each inline code span
        that prose says to run ("told") or that has arguments ("inline")."""
        line = self.text[start:end]
        block = self.block_at(start)
        if block is not None:
            return [("shell", line)] if block[2] in _SHELL_LANGS else []
        if not self.in_prose(start):
            return []
        if line.lstrip().startswith("$ "):
            return [("shell", line.strip())]
        spans: list[tuple[str, str]] = []
        for span in _CODE_SPAN.finditer(line):
            code = span.group(2).strip()
            if _RUN_BEFORE_SPAN.search(line, 0, span.start()) is not None:
                spans.append(("told", code))
            elif len(code.split()) > 1:
                spans.append(("inline", code))
        return spans


def _words(line: str) -> Iterator[str]:
    """Every shell word of a line (quotes removed), up to a comment."""
    for token in _SHELL_TOKEN.findall(line.strip().removeprefix("$ ")):
        if token.startswith("#"):
            return
        if token[0] not in _OPERATORS:
            yield token.replace('"', "").replace("'", "")


def _command_words(line: str) -> Iterator[str]:
    """The words of a shell line that run as commands (shell syntax, roughly)."""
    stripped = line.strip()
    if stripped.startswith("$ "):
        stripped = stripped[2:]
    at_command, after_redirect = True, False
    for token in _SHELL_TOKEN.findall(stripped):
        if token.startswith("#"):
            return
        if token[0] in _OPERATORS:
            after_redirect = "<" in token or ">" in token  # its operand is a file, not a command
            at_command = not after_redirect
        elif after_redirect:
            after_redirect = False
        elif at_command and not (_ASSIGNMENT.match(token) or token in _WRAPPERS):
            at_command = False
            yield token.replace('"', "").replace("'", "")

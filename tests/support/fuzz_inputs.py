"""Hypothesis strategies for hostile input to the parsers, and the bounded settings they run under.

The strategies mix plain random text with fragments chosen to reach the corners PyYAML and
json have tripped on (impossible dates, `!!float ''`, deep nesting, lone surrogates, aliases),
so a couple of hundred examples test more than random bytes would. bench/fuzz_parsers.py runs
the same targets coverage-guided at 10^6 inputs each.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# A few seconds per property on a slow machine; no example database (nothing written to the
# working folder); examples may be slow (the checks behind a parser are not free).
FUZZ = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

TIMES = ("2026-01-01T00:00:00Z", "2026-02-28T23:59:59Z", "1999-12-31T00:00:00Z")
SKILL_NAMES = ("pdf-tools", "a", "x1-y2", "données", "pdf-extract-forms")

YAML_SCALARS = (
    "2026-02-30",
    "0000-01-01",
    "2026-01-01",
    "2026-01-01T00:00:00Z",
    "!!float ''",
    "!!int ''",
    "!!binary '@@'",
    "!!binary aGVsbG8=",
    "!!timestamp x",
    "!!set {a}",
    "!!omap [a: 1]",
    "!!pairs [a: 1]",
    "!!python/object:os.system x",
    "!!str 3",
    ".nan",
    ".inf",
    "-.inf",
    "1e3",
    "1e400",
    "1.0e400",
    "9" * 400,
    "9" * 5000,
    "-1",
    "0",
    "0.5",
    "0x1f",
    "0o17",
    "1_000",
    "yes",
    "no",
    "~",
    "null",
    "&a x",
    "*a",
    "*b",
    "[",
    "{",
    "[a, b]",
    "{a: 1}",
    "[*a, *a]",
    "'unterminated",
    '"\\ud800"',
    '"\\x85"',
    '"a\\u2028b"',
    "|",
    ">-",
    "|+\n  x",
    "'---'",
    "http://[::1",
    "\t",
    "\x85",
    "\ufeff",
    "[" * 300 + "]" * 300,
    "{a: " * 200 + "}" * 200,
)
YAML_KEYS = (
    "name",
    "description",
    "metadata",
    "license",
    "allowed-tools",
    "compatibility",
    "hermes",
    "curator",
    "llm",
    "skills_dir",
    "interval_hours",
    "min_idle_hours",
    "stale_after_days",
    "archive_after_days",
    "min_age_days",
    "min_retention",
    "protect",
    "enabled",
    "consolidate",
    "base_url",
    "model",
    "api_key_env",
    "max_requests",
    "timeout_seconds",
    "retries",
    "max_tokens",
    "<<",
    "? [a]",
    "&a k",
    "*a",
    "- x",
    "1",
)


def _line(indent: str, key: str, value: str) -> str:
    return f"{indent}{key}: {value}" if value else f"{indent}{key}:"


yaml_lines = st.builds(
    _line,
    st.sampled_from(("", "", "  ", "    ", "\t", "- ")),
    st.one_of(st.sampled_from(YAML_KEYS), st.text(max_size=8)),
    st.one_of(st.just(""), st.sampled_from(YAML_SCALARS), st.text(max_size=20)),
)
# YAML text: mostly line-shaped documents of real keys and tricky values, sometimes noise.
yaml_text = st.one_of(
    st.lists(
        st.one_of(yaml_lines, st.sampled_from(("---", "...", "%YAML 1.1", "#"))), max_size=12
    ).map("\n".join),
    st.text(max_size=200),
)


def skill_md_bytes() -> st.SearchStrategy[bytes]:
    """SKILL.md files: frontmatter fences around YAML-ish text, a body, and some raw bytes."""
    body = st.text(alphabet=st.characters(codec="utf-8"), max_size=80)
    framed = st.builds(
        lambda bom, fm, body, crlf: _frame(bom, fm, body, crlf),
        st.booleans(),
        yaml_text,
        body,
        st.booleans(),
    )
    raw = st.binary(max_size=300)
    return st.one_of(framed.map(lambda t: t.encode("utf-8", "surrogatepass")), raw)


def _frame(bom: bool, frontmatter: str, body: str, crlf: bool) -> str:
    text = f"---\n{frontmatter}\n---\n{body}"
    if crlf:
        text = text.replace("\n", "\r\n")
    return ("\ufeff" if bom else "") + text


# JSON values built as any decoder may meet them: wrong types, huge numbers, odd strings.
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(TIMES + SKILL_NAMES + ("\ud800", "", " ", "use", "view", "cli", "-1")),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


def json_text(doc: Any) -> str:
    """A document as JSON text, lone surrogates and all (escaped, as json.dumps writes them)."""
    return json.dumps(doc)


def mutated_json(
    base: st.SearchStrategy[dict[str, Any]], keys: tuple[str, ...]
) -> st.SearchStrategy[str]:
    """JSON text of `base` documents with some `keys` replaced by any JSON value or removed,
    or cut short, or plain noise: the shapes a damaged or hostile writer leaves."""

    def mutate(doc: dict[str, Any], changes: dict[str, Any], drop: list[str]) -> dict[str, Any]:
        out = {**doc, **changes}
        for key in drop:
            out.pop(key, None)
        return out

    documents = st.builds(
        mutate,
        base,
        st.dictionaries(st.sampled_from(keys), json_values, max_size=2),
        st.lists(st.sampled_from(keys), max_size=1),
    ).map(json_text)
    cut = st.tuples(documents, st.integers(min_value=0, max_value=400)).map(lambda p: p[0][: p[1]])
    deep = st.integers(min_value=1, max_value=5000).map(lambda n: "[" * n + "]" * n)
    return st.one_of(documents, documents, cut, deep, st.text(max_size=100))

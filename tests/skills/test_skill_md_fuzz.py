"""Any SKILL.md bytes give findings, never an exception; what we render parses back the same."""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st
from support.fuzz_inputs import FUZZ, skill_md_bytes

from gitcurator.skills.check_skill import skill_name, validate_skill
from gitcurator.skills.document import SkillParseError, parse_skill_md, render_skill_md
from gitcurator.skills.files import FileEntry, SkillFiles

FOLDER = "pdf-tools"


def _skill(data: bytes) -> SkillFiles:
    path = f"{FOLDER}/SKILL.md"
    return SkillFiles(FOLDER, path, (FileEntry(path, len(data), data=data),))


def _jwt_shaped(nesting: int) -> bytes:
    """A body token shaped like a JWT whose header and payload are JSON nested `nesting` deep."""
    part = base64.urlsafe_b64encode(b'{"a":' * nesting + b"1" + b"}" * nesting).rstrip(b"=")
    token = part + b"." + part + b".abcdefghijklmnopqrstuvwxyz0123456789_-"
    return b"---\nname: pdf-tools\ndescription: d\n---\ntoken " + token + b"\n"


@FUZZ
@given(skill_md_bytes(), st.booleans())
@example(_jwt_shaped(3000), False)  # json.loads raised RecursionError in the JWT secret check
@example(b"---\nname: x\nd: 2026-02-30\n---\n", True)  # PyYAML raised ValueError
@example(b"---\nd: !!timestamp x\n---\n", False)  # PyYAML raised AttributeError
def test_any_skill_md_is_findings_and_a_parse_error_is_one_of_them(
    data: bytes, strict: bool
) -> None:
    findings = validate_skill(_skill(data), strict=strict)
    assert all(f.level in ("error", "warning") and f.message for f in findings)
    try:
        doc = parse_skill_md(data)
    except SkillParseError as exc:
        assert exc.message
        assert [f.rule for f in findings if f.rule == "parse"] == ["parse"]
        assert skill_name(_skill(data)) == FOLDER
    else:
        assert isinstance(doc.frontmatter, dict) and all(
            isinstance(k, str) for k in doc.frontmatter
        )
        assert not any(f.rule == "parse" for f in findings)
        assert isinstance(skill_name(_skill(data)), str)


# Text YAML can hold: no lone surrogates, no NUL in the body (a NUL makes the file binary),
# no carriage returns in the body (line ends are normalised on reading).
_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=30)
_BODY = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\x00\r"), max_size=200
).map(lambda b: b.lstrip("\n"))
_VALUES: st.SearchStrategy[Any] = st.recursive(
    st.one_of(_TEXT, st.integers(), st.booleans(), st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_TEXT, inner, max_size=3)),
    max_leaves=8,
)


@FUZZ
@given(st.dictionaries(_TEXT, _VALUES, max_size=6), _BODY)
def test_a_rendered_skill_md_parses_back_to_its_frontmatter_and_body(
    frontmatter: dict[str, Any], body: str
) -> None:
    doc = parse_skill_md(render_skill_md(frontmatter, body).encode("utf-8"))
    assert doc.frontmatter == frontmatter
    assert doc.body == body

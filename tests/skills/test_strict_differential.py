"""`validate --strict` against the reference validator skills-ref 0.1.1, fixture by fixture.

Each folder tests/fixtures/strict/<case>/<skill folder>/ holds one skill. Both validators must
agree on valid/invalid, and for the rules whose wording we copy (name, description,
compatibility, unexpected or missing fields) on the messages themselves; the cases in
SKILLS_REF_WRONG are skills-ref bugs, where we assert that gitcurator is right instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from skills_ref.validator import validate as skills_ref_validate  # type: ignore[import-untyped]

from gitcurator.skills.check_skill import validate_skill
from gitcurator.skills.files import FileEntry, SkillFiles

FIXTURES = Path(__file__).parents[1] / "fixtures" / "strict"
HERMES = Path(__file__).parents[1] / "data" / "cache" / "hermes-0.19.0" / "library"

# case -> why skills-ref 0.1.1 gets it wrong (and so what gitcurator must say instead).
SKILLS_REF_WRONG: dict[str, str] = {
    # parse_frontmatter() does content.split("---", 2): a `---` inside a value ends the
    # frontmatter there, so `name:` on a later line is "missing". The closing fence is a line.
    "bug-dashes-in-value": "valid",
    # Not a skills-ref bug but a deliberate disagreement: skills-ref accepts skill.md, but
    # Codex (codex-rs/core/src/skills/loader.rs) and Hermes (agent/skill_utils.py) look for
    # SKILL.md by its exact name and never load the skill, so it is an error in both modes.
    "valid-lowercase-file": "invalid",
    # strictyaml refuses flow style ({a: b}, [a, b]), anchors and tags: valid YAML that every
    # YAML client loads (Hermes' own skills use `platforms: [macos, linux]` throughout).
    "bug-flow-mapping-metadata": "valid",
    "bug-yaml-anchor": "valid",
    "bug-yaml-tag": "valid",
    # The spec types these optional fields; skills-ref never checks them (it even str()s
    # nested metadata values into "{'tags': 'pdf'}"), so a spec violation passes.
    "bug-nested-metadata": "invalid",
    "bug-metadata-not-mapping": "invalid",
    "bug-allowed-tools-list": "invalid",
}
# skills-ref messages that gitcurator --strict must repeat word for word.
COPIED_PREFIXES = (
    "Skill name",
    "Directory name",
    "Field 'name'",
    "Field 'description'",
    "Field 'compatibility'",
    "Description exceeds",
    "Compatibility exceeds",
    "Unexpected fields in frontmatter",
    "Missing required field",
)
CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
AGREEING = [c for c in CASES if c not in SKILLS_REF_WRONG]


def read_skill(folder: Path, root: Path) -> SkillFiles:
    """A skill folder on disk as SkillFiles, paths relative to `root` (the 'repository')."""
    entries = []
    for dirpath, _, filenames in os.walk(folder):
        for filename in sorted(filenames):
            full = Path(dirpath) / filename
            entries.append(
                FileEntry(
                    full.relative_to(root).as_posix(),
                    full.stat().st_size,
                    os.access(full, os.X_OK),
                    None,
                    full.read_bytes(),
                )
            )
    skill_md = next(
        e.path for e in entries if e.path.rsplit("/", 1)[-1] in ("SKILL.md", "skill.md")
    )
    return SkillFiles(folder.relative_to(root).as_posix(), skill_md, tuple(entries))


def run_both(case: str) -> tuple[list[str], list[str]]:
    """(skills-ref's errors, gitcurator --strict's error messages) for one fixture."""
    (folder,) = (FIXTURES / case).iterdir()
    ours = validate_skill(read_skill(folder, FIXTURES / case), strict=True)
    return skills_ref_validate(folder), [f.message for f in ours if f.level == "error"]


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 30
    assert set(SKILLS_REF_WRONG) <= set(CASES)


@pytest.mark.parametrize("case", AGREEING)
def test_strict_agrees_with_skills_ref(case: str) -> None:
    reference, ours = run_both(case)
    assert bool(ours) == bool(reference), f"skills-ref: {reference}\ngitcurator: {ours}"
    assert case.startswith("valid-") == (not reference), "fixture name says the wrong verdict"
    if all(m.startswith(COPIED_PREFIXES) for m in reference):
        # No parse error on either side: the field messages must be the very same.
        assert set(reference) == {m for m in ours if m.startswith(COPIED_PREFIXES)}


@pytest.mark.parametrize("case", sorted(SKILLS_REF_WRONG))
def test_strict_is_right_where_skills_ref_is_wrong(case: str) -> None:
    reference, ours = run_both(case)
    if SKILLS_REF_WRONG[case] == "valid":
        assert reference, "skills-ref fixed this bug: move the case to the agreeing ones"
        assert ours == []
    else:
        assert reference == [], "skills-ref fixed this bug: move the case to the agreeing ones"
        assert ours


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("bug-nested-metadata", "Field 'metadata' values must be strings, not in: hermes"),
        ("bug-metadata-not-mapping", "Field 'metadata' must be a mapping of string keys"),
        ("bug-allowed-tools-list", "Field 'allowed-tools' must be a space-delimited string"),
    ],
)
def test_strict_names_the_spec_departure_skills_ref_misses(case: str, expected: str) -> None:
    _, ours = run_both(case)
    assert any(m.startswith(expected) for m in ours), ours


def test_strict_and_skills_ref_agree_on_every_hermes_skill() -> None:
    if not HERMES.is_dir():
        pytest.skip("hermes skills not fetched (python tests/data/fetch.py)")
    folders = sorted(p.parent for p in HERMES.glob("**/SKILL.md"))
    assert len(folders) == 177
    disagreements = []
    for folder in folders:
        ours = validate_skill(read_skill(folder, HERMES), strict=True)
        if bool(skills_ref_validate(folder)) != any(f.level == "error" for f in ours):
            disagreements.append(folder)
    assert disagreements == []


def test_default_mode_has_no_errors_on_hermes_skills() -> None:
    if not HERMES.is_dir():
        pytest.skip("hermes skills not fetched (python tests/data/fetch.py)")
    paths = frozenset(p.relative_to(HERMES).as_posix() for p in HERMES.glob("**/*") if p.is_file())
    errors = []
    warned = set()
    for skill_md in sorted(HERMES.glob("**/SKILL.md")):
        for finding in validate_skill(read_skill(skill_md.parent, HERMES), repo_paths=paths):
            if finding.level == "error":
                errors.append(finding)
            elif finding.rule == "name":
                warned.add(finding.path)
    assert errors == []
    # 18 names differ from their folder, one of them (`here.now`) also uses a dot.
    assert len(warned) == 18

"""skills-lock.json read and written as the `npx skills` CLI does, and its computedHash equal to
the hash the real CLI computed (npm package `skills` 1.5.18, recorded below)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gitcurator.errors import CuratorError
from gitcurator.upstream.folder_merge import EXECUTABLE, SYMLINK, FileEntry
from gitcurator.upstream.path_collation import locale_key
from gitcurator.upstream.skills_lock import (
    LockEntry,
    SkillsLock,
    SkillsLockConflict,
    SkillsLockError,
    computed_hash,
    folder_hash,
    parse_lock,
    render_lock,
    with_entry,
)

FIXTURES = Path(__file__).parent / "fixtures_lock"

# The skill folders the real CLI hashed (`skills add ./src --skill '*' -a claude-code -y --copy`
# in a scratch project): every regular file with its bytes. The CLI also saw, and skipped, a
# symlink `link.md -> SKILL.md`, `node_modules/pkg/index.js` and `.git/HEAD`.
ALPHA = {
    "SKILL.md": b"---\nname: alpha\ndescription: Use when testing the lock hash.\n---\n\n# Alpha\n",
    "scripts/run.sh": b"#!/bin/sh\necho hi\n",
    "references/a-b.md": b"dash\n",
    "references/a_b.md": b"under\n",
    "references/A.md": b"upper\n",
    "references/a.md": b"lower\n",
    "references/crlf.txt": b"x\r\ny\r\n",
    "empty.txt": b"",
    "logo.bin": b"bin\0ary",
    "résumé.md": b"r\n",
    ".hidden": b"h\n",
    "README.md": b"R\n",
}
ALPHA_HASH = "48e2ae08bde58257ed7b21d18f01d0c49753780f1b54be2267e85c317abbdc6b"
BETA = {
    "SKILL.md": b"---\nname: beta\ndescription: Use when the second skill is needed.\n---\n\nBody\n"
}
BETA_HASH = "5890af2c8d667d8642d1d5c9ab34ae66f54f0c88d74020fa4623c91144a18bff"
# Names chosen to tell the CLI's order (ICU localeCompare) from every simpler one; each file
# holds its own path and a newline.
GAMMA_PATHS = [
    "$cash", "10.md", "9.md", "Scripts/Run.sh", "Zeta.md", "a-b/c", "a.b/c", "a/b", "a_b",
    "scripts/run.sh", "skill.txt", "sp ace.md", "ueber.md", "zeta/x.md", "~tilde", "über.md",
]  # fmt: skip
GAMMA = {
    "SKILL.md": b"---\nname: gamma\ndescription: Use when ordering matters.\n---\n",
    **{p: p.encode() + b"\n" for p in GAMMA_PATHS},
}
GAMMA_HASH = "0db6639849ebb5c5ca888882c11fcbcaf9fcaf389cb209932e3752f2f0f9cc1c"
# Node 20's `[...].sort((a, b) => a.localeCompare(b))` of GAMMA's paths.
NODE_ORDER = [
    "~tilde", "$cash", "10.md", "9.md", "a_b", "a-b/c", "a.b/c", "a/b", "scripts/run.sh",
    "Scripts/Run.sh", "SKILL.md", "skill.txt", "sp ace.md", "über.md", "ueber.md", "Zeta.md",
    "zeta/x.md",
]  # fmt: skip


@pytest.mark.parametrize(
    ("files", "expected"), [(ALPHA, ALPHA_HASH), (BETA, BETA_HASH), (GAMMA, GAMMA_HASH)]
)
def test_computed_hash_is_the_one_the_skills_cli_computed(
    files: dict[str, bytes], expected: str
) -> None:
    assert computed_hash(files) == expected


def test_files_are_hashed_in_the_order_of_localecompare() -> None:
    assert sorted(GAMMA, key=locale_key) == NODE_ORDER


def test_node_modules_and_git_folders_are_skipped_at_any_depth() -> None:
    noisy = {**ALPHA, "node_modules/pkg/index.js": b"n\n", ".git/HEAD": b"g\n", "x/.git/c": b"c"}
    assert computed_hash(noisy) == ALPHA_HASH
    # A file (not a folder) of that name is an ordinary file.
    assert computed_hash({**ALPHA, "node_modules": b"n\n"}) != ALPHA_HASH


def test_folder_hash_leaves_out_symlinks_and_keeps_modes_out_of_it() -> None:
    entries = {p: FileEntry(c) for p, c in ALPHA.items()}
    entries["scripts/run.sh"] = FileEntry(ALPHA["scripts/run.sh"], EXECUTABLE)
    entries["link.md"] = FileEntry(b"SKILL.md", SYMLINK)
    entries["module"] = FileEntry(b"", 0o160000)
    assert folder_hash(entries) == ALPHA_HASH


def test_a_lock_the_cli_wrote_reads_and_writes_back_byte_for_byte() -> None:
    text = (FIXTURES / "written-by-skills-1.5.18.json").read_text(encoding="utf-8")
    lock = parse_lock(text)
    assert set(lock.skills) == {"alpha", "beta"}
    assert lock.skills["alpha"].computed_hash == ALPHA_HASH
    assert lock.skills["beta"].source_type == "local"
    assert lock.skills["alpha"].ref is None
    assert render_lock(lock) == text


def test_refs_unknown_fields_and_key_order_survive_a_round_trip() -> None:
    text = (FIXTURES / "with-ref-and-extras.json").read_text(encoding="utf-8")
    lock = parse_lock(text)
    zebra = lock.skills["Zebra"]
    assert zebra.ref == "v2"
    assert zebra.extra["subagents"] == ["root", "reviewer"]
    assert render_lock(lock) == text
    # Entries are written sorted as JavaScript sorts object keys, whatever order they came in.
    shuffled = SkillsLock(dict(reversed(list(lock.skills.items()))))
    assert render_lock(shuffled) == text


def test_an_entry_gitcurator_writes_has_the_clis_field_order() -> None:
    lock = SkillsLock(
        {
            "b": LockEntry("acme/skills", "github", "ff", ref="main"),
            "a": LockEntry("x", "local", "0"),
        }
    )
    assert render_lock(lock) == (
        '{\n  "version": 1,\n  "skills": {\n'
        '    "a": {\n      "source": "x",\n      "sourceType": "local",\n'
        '      "computedHash": "0"\n    },\n'
        '    "b": {\n      "source": "acme/skills",\n      "ref": "main",\n'
        '      "sourceType": "github",\n      "computedHash": "ff"\n    }\n  }\n}\n'
    )
    assert render_lock(SkillsLock()) == '{\n  "version": 1,\n  "skills": {}\n}\n'


def test_a_new_hash_replaces_only_that_field() -> None:
    text = (FIXTURES / "with-ref-and-extras.json").read_text(encoding="utf-8")
    lock = parse_lock(text)
    entry = dataclasses.replace(lock.skills["Zebra"], computed_hash=GAMMA_HASH[::-1])
    again = render_lock(with_entry(lock, "Zebra", entry))
    assert again == text.replace(GAMMA_HASH, GAMMA_HASH[::-1])
    assert lock.skills["Zebra"].computed_hash == GAMMA_HASH  # the lock read is unchanged


def test_unknown_top_level_fields_are_kept() -> None:
    lock = parse_lock('{"version": 1, "skills": {}, "note": {"by": "hand"}}')
    assert json.loads(render_lock(lock))["note"] == {"by": "hand"}


def test_conflict_markers_are_refused_with_what_to_do() -> None:
    text = (FIXTURES / "conflicted.json").read_text(encoding="utf-8")
    with pytest.raises(SkillsLockConflict) as caught:
        parse_lock(text)
    message = str(caught.value)
    assert "skills-lock.json" in message and "line 4" in message and "both sides" in message
    assert isinstance(caught.value, CuratorError)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not valid JSON"),
        ('{"version": 1, "skills": {', "not valid JSON"),
        ("[" * 100000, "not valid JSON"),
        ("[]", "must hold a JSON object"),
        ('{"skills": {}}', "version None"),
        ('{"version": 2, "skills": {}}', "version 2"),
        ('{"version": true, "skills": {}}', "version True"),
        ('{"version": "1", "skills": {}}', "version '1'"),
        ('{"version": 1, "skills": []}', "'skills' must be an object"),
        ('{"version": 1, "skills": {"a": 3}}', "skill 'a' must be an object"),
        ('{"version": 1, "skills": {"a": {"sourceType": "x", "computedHash": ""}}}', "'source'"),
        (
            '{"version": 1, "skills": {"a": {"source": 1, "sourceType": "x"}}}',
            "skill 'a': 'source'",
        ),
        (
            '{"version": 1, "skills": {"a": {"source": "s", "sourceType": "x"}}}',
            "skill 'a': 'computedHash' must be a string",
        ),
        (
            '{"version": 1, "skills": {"a": {"source": "s", "sourceType": "x", '
            '"computedHash": "", "ref": 7}}}',
            "skill 'a': 'ref' must be a string",
        ),
        (
            '{"version": 1, "skills": {"a": {"source": "s", "sourceType": "x", "computedHash": ""},'
            ' "a": {"source": "t", "sourceType": "x", "computedHash": ""}}}',
            "names 'a' twice",
        ),
        ('{"version": 1, "skills": {"": {}}}', "empty name"),
    ],
)
def test_a_bad_lock_is_refused_naming_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(SkillsLockError) as caught:
        parse_lock(text)
    assert words in str(caught.value)
    assert "skills-lock.json" in str(caught.value)


def test_a_byte_order_mark_is_read_past() -> None:
    assert parse_lock('\ufeff{"version": 1, "skills": {}}').skills == {}

"""The validation rules, one table per rule: level, rule id, file, line and wording."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from gitcurator.skills.check_skill import Finding, duplicate_names, skill_name, validate_skill
from gitcurator.skills.files import MAX_LOADED_BYTES, FileEntry, SkillFiles

FOLDER = "skills/pdf-tools"
GOOD = "---\nname: pdf-tools\ndescription: Converts PDF files to text.\n---\n"
# Pieces of a key, joined at run time so this file holds nothing a secret scanner flags.
STRIPE_KEY = "sk" + "_live_" + "Zq8Rw2Lp9Ks7Jd6Hf1GmTc4N"


def make_skill(
    files: Mapping[str, str | bytes | None],
    *,
    folder: str = FOLDER,
    executable: frozenset[str] = frozenset(),
    symlinks: dict[str, str] | None = None,
    skill_md: str = "SKILL.md",
) -> SkillFiles:
    """A skill from {path inside the folder: content}; None content = too large to load."""
    entries = []
    for rel, content in files.items():
        data = content.encode() if isinstance(content, str) else content
        size = len(data) if data is not None else MAX_LOADED_BYTES + 1
        entries.append(FileEntry(f"{folder}/{rel}", size, rel in executable, None, data))
    for rel, target in (symlinks or {}).items():
        entries.append(FileEntry(f"{folder}/{rel}", len(target), False, target, None))
    return SkillFiles(folder, f"{folder}/{skill_md}", tuple(entries))


def summary(findings: list[Finding]) -> list[tuple[str, str, str, int | None]]:
    return [(f.level, f.rule, f.path, f.line) for f in findings]


def frontmatter(*lines: str, body: str = "\n# PDF tools\n") -> str:
    return "---\n" + "".join(f"{line}\n" for line in lines) + "---\n" + body


def check(text: str | bytes, *, strict: bool = False, folder: str = FOLDER) -> list[Finding]:
    return validate_skill(make_skill({"SKILL.md": text}, folder=folder), strict=strict)


# --- SKILL.md as a file -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"", "SKILL.md is empty; it needs YAML frontmatter", 1),
        (b"# Title\n", "SKILL.md must start with YAML frontmatter", 1),
        (b"---\nname: pdf-tools\n", "SKILL.md frontmatter is not closed", 1),
        (b"---\nname: a\n\tdescription: d\n---\n", "SKILL.md frontmatter is not valid YAML", 3),
        (b"---\nname: [a\n---\n", "SKILL.md frontmatter is not valid YAML", 2),
        (b"---\n- a\n---\n", "SKILL.md frontmatter must be a YAML mapping", 2),
        (b"---\nname: \xff\n---\n", "SKILL.md is not UTF-8 text", 2),
    ],
)
def test_parse_errors_name_the_line(data: bytes, message: str, line: int) -> None:
    (finding,) = check(data)
    assert (finding.level, finding.rule, finding.path, finding.line) == (
        "error",
        "parse",
        f"{FOLDER}/SKILL.md",
        line,
    )
    assert finding.message.startswith(message)


def test_skill_md_too_large_to_load_is_an_error_naming_its_size() -> None:
    (finding,) = validate_skill(make_skill({"SKILL.md": None}))
    assert (finding.level, finding.rule) == ("error", "large-file")
    assert finding.message.startswith("SKILL.md is 5.0 MB, too large to read")
    assert "move long material to references/" in finding.message


def test_lowercase_skill_md_is_an_error_naming_the_clients_and_still_validated() -> None:
    skill = make_skill({"skill.md": frontmatter("name: pdf-tools")}, skill_md="skill.md")
    findings = validate_skill(skill)
    assert summary(findings) == [
        ("error", "description", f"{FOLDER}/skill.md", None),
        ("error", "lowercase-file", f"{FOLDER}/skill.md", None),
    ]
    assert "Codex and Hermes look for SKILL.md by its exact name" in findings[1].message


@pytest.mark.parametrize("strict", [False, True])
def test_bom_and_crlf_are_read_and_the_bom_is_an_error_as_codex_misses_it(strict: bool) -> None:
    data = b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode()
    findings = check(data, strict=strict)
    assert summary(findings) == [("error", "encoding", f"{FOLDER}/SKILL.md", 1)]
    assert "Codex then finds no frontmatter" in findings[0].message


def test_crlf_alone_is_fine() -> None:
    assert check(GOOD.replace("\n", "\r\n")) == []


# --- frontmatter, default mode ------------------------------------------------------------

DEFAULT_CASES = [
    ("minimal", ["name: pdf-tools", "description: d"], []),
    (
        "hermes extensions",
        [
            "name: pdf-tools",
            "description: d",
            "version: 1.2.0",
            "author: Nous Research",
            "license: MIT",
            "platforms: [macos, linux]",
            "prerequisites:",
            "  commands: [pdftotext]",
            "metadata:",
            "  hermes:",
            "    tags: [pdf, text]",
            "    related_skills: [ocr]",
        ],
        [],
    ),
    (
        "claude code extensions",
        [
            "name: pdf-tools",
            "description: d",
            "disable-model-invocation: true",
            "user-invocable: false",
            "argument-hint: '[file]'",
            "allowed-tools: [Read, Bash]",
            "model: claude-sonnet-4-5",
            "context: fork",
            "agent: general-purpose",
            "when_to_use: PDFs",
            "hooks: {}",
        ],
        [],
    ),
    (
        "openclaw metadata",
        [
            "name: pdf-tools",
            "description: d",
            'metadata: {"openclaw": {"requires": {"bins": [x]}}}',
        ],
        [],
    ),
    (
        "unknown field",
        ["name: pdf-tools", "description: d", "colour: blue", "flavour: mint"],
        [("warning", "fields", 4, "Unknown frontmatter fields: colour, flavour")],
    ),
    (
        "name differs from folder",
        ["name: pdf", "description: d"],
        [("warning", "name", 2, "Directory name 'pdf-tools' must match skill name 'pdf'")],
    ),
    (
        "name missing",
        ["description: d"],
        [("error", "name", None, "Missing required field in frontmatter: name (Codex does not")],
    ),
    (
        "dot in name (Hermes accepts it)",
        ["name: pdf.tools", "description: d"],
        [
            ("warning", "name", 2, "Skill name 'pdf.tools' contains invalid characters."),
            ("warning", "name", 2, "Directory name 'pdf-tools' must match skill name"),
        ],
    ),
    (
        "uppercase name",
        ["name: PDF-Tools", "description: d"],
        [
            ("error", "name", 2, "Skill name 'PDF-Tools' must be lowercase"),
            ("warning", "name", 2, "Directory name"),
        ],
    ),
    (
        "consecutive hyphens",
        ["name: pdf--tools", "description: d"],
        [
            ("warning", "name", 2, "Skill name cannot contain consecutive hyphens"),
            ("warning", "name", 2, "Directory name"),
        ],
    ),
    (
        "space in name",
        ["name: pdf tools", "description: d"],
        [
            ("error", "name", 2, "Skill name 'pdf tools' contains invalid characters."),
            ("warning", "name", 2, "Directory name"),
        ],
    ),
    (
        "name too long",
        ["name: " + "a" * 65, "description: d"],
        [
            ("error", "name", 2, "Skill name '" + "a" * 65 + "' exceeds 64 character limit (65"),
            ("warning", "name", 2, "Directory name"),
        ],
    ),
    (
        "name is a list",
        ["name: [pdf-tools]", "description: d"],
        [("error", "name", 2, "Field 'name' must be a non-empty string")],
    ),
    (
        "name is a number",
        ["name: 2024", "description: d"],
        [("error", "name", 2, "Field 'name' must be a non-empty string")],
    ),
    (
        "description missing",
        ["name: pdf-tools"],
        [("error", "description", None, "Missing required field in frontmatter: description")],
    ),
    (
        "description empty",
        ["name: pdf-tools", "description: ''"],
        [("error", "description", 3, "Field 'description' must be a non-empty string")],
    ),
    (
        "description not a string",
        ["name: pdf-tools", "description: [a, b]"],
        [("error", "description", 3, "Field 'description' must be a non-empty string")],
    ),
    (
        "description too long",
        ["name: pdf-tools", "description: " + "d" * 1025],
        [
            (
                "error",
                "description",
                3,
                "Description exceeds 1024 character limit (1025 chars) (Codex",
            )
        ],
    ),
    (
        "compatibility too long",
        ["name: pdf-tools", "description: d", "compatibility: " + "c" * 501],
        [("warning", "compatibility", 4, "Compatibility exceeds 500 character limit (501")],
    ),
    (
        "compatibility a list",
        ["name: pdf-tools", "description: d", "compatibility: [linux]"],
        [("warning", "compatibility", 4, "Field 'compatibility' must be a string")],
    ),
    (
        "metadata values not strings",
        ["name: pdf-tools", "description: d", "metadata:", "  version: 1.0", "  tags: [a]"],
        [
            (
                "warning",
                "metadata",
                4,
                "Field 'metadata' values must be strings, not in: tags, version (write a list "
                'as one string (`tags: "a"`); quote a number, date or boolean (`version: "1.0"`))',
            )
        ],
    ),
    (
        "metadata not a mapping",
        ["name: pdf-tools", "description: d", "metadata: pdf"],
        [("error", "metadata", 4, "Field 'metadata' must be a mapping")],
    ),
    (
        "allowed-tools a mapping",
        ["name: pdf-tools", "description: d", "allowed-tools: {Read: yes}"],
        [("warning", "fields", 4, "Field 'allowed-tools' must be a string or a list")],
    ),
    (
        "duplicate key",
        ["name: pdf-tools", "description: d", "description: e"],
        [("error", "duplicate-key", 4, "Frontmatter key 'description' appears more than once")],
    ),
    (
        "duplicate key Codex ignores",
        ["name: pdf-tools", "description: d", "tags: a", "tags: b"],
        [("warning", "duplicate-key", 5, "Frontmatter key 'tags' appears more than once")],
    ),
    (
        "leading hyphen",
        ["name: -pdf-tools", "description: d"],
        [
            ("warning", "name", 2, "Skill name cannot start or end with a hyphen (the spec"),
            ("warning", "name", 2, "Directory name"),
        ],
    ),
    (
        "metadata list of mappings",
        ["name: pdf-tools", "description: d", "metadata:", "  authors:", "    - name: A"],
        [
            (
                "warning",
                "metadata",
                4,
                "Field 'metadata' values must be strings, not in: authors (move structured data "
                "out of metadata, to a top-level field)",
            )
        ],
    ),
    (
        "codex short-description not a string",
        ["name: pdf-tools", "description: d", "metadata:", "  short-description: [a]"],
        [
            ("error", "metadata", 4, "Field 'metadata.short-description' must be a string"),
            ("warning", "metadata", 4, "Field 'metadata' values must be strings"),
        ],
    ),
]


@pytest.mark.parametrize(
    ("lines", "expected"), [c[1:] for c in DEFAULT_CASES], ids=[c[0] for c in DEFAULT_CASES]
)
def test_default_mode_frontmatter(
    lines: list[str], expected: list[tuple[str, str, int | None, str]]
) -> None:
    findings = check(frontmatter(*lines))
    assert [(f.level, f.rule, f.line) for f in findings] == [e[:3] for e in expected]
    for finding, (_, _, _, message) in zip(findings, expected, strict=True):
        assert finding.message.startswith(message), finding.message
        assert finding.path == f"{FOLDER}/SKILL.md"


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("name", ["навык", "技能", "ﬁle-tools"])
def test_unicode_names_are_valid(name: str, strict: bool) -> None:
    text = frontmatter(f"name: {name}", "description: d")
    assert check(text, strict=strict, folder=f"skills/{name}") == []


@pytest.mark.parametrize(
    ("folder", "lines", "expected"),
    [
        (
            "with space",
            ["name: with-space", "description: d"],
            [
                ("warning", "Directory name 'with space' must match skill name 'with-space'"),
                ("warning", "Directory name 'with space' contains invalid characters."),
            ],
        ),
        (
            "Upper",
            ["description: d"],
            [
                ("error", "Missing required field in frontmatter: name"),
                ("warning", "Directory name 'Upper' must be lowercase"),
            ],
        ),
        (
            "my_tool",
            ["name: my-tool", "description: d"],
            [("warning", "Directory name 'my_tool' must match"), ("warning", "Directory name")],
        ),
    ],
)
def test_default_mode_checks_the_folder_name_gitcurator_knows_a_skill_by(
    folder: str, lines: list[str], expected: list[tuple[str, str]]
) -> None:
    findings = check(frontmatter(*lines), folder=f"skills/{folder}")
    assert [(f.level, f.rule) for f in findings] == [(level, "name") for level, _ in expected]
    for finding, (_, message) in zip(findings, expected, strict=True):
        assert finding.message.startswith(message), finding.message
    assert "rename the folder" in findings[-1].message


def test_default_mode_explains_tolerated_departures() -> None:
    (mismatch,) = check(frontmatter("name: pdf", "description: d"))
    assert "clients load it under its name; --strict rejects it" in mismatch.message
    (missing,) = check(frontmatter("description: d"))
    assert "Claude Code and Hermes fall back to the folder name): add `name: pdf-tools`" in (
        missing.message
    )


# --- frontmatter, strict mode (more in test_strict_differential.py) -----------------------

STRICT_CASES = [
    ("minimal", ["name: pdf-tools", "description: d"], []),
    (
        "client extensions are unexpected",
        ["name: pdf-tools", "description: d", "version: 1.0", "platforms: [linux]"],
        [
            (
                "fields",
                4,
                "Unexpected fields in frontmatter: platforms, version. Only ['allowed-tools', "
                "'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
            )
        ],
    ),
    (
        "name differs from folder",
        ["name: pdf", "description: d"],
        [("name", 2, "Directory name 'pdf-tools' must match skill name 'pdf'")],
    ),
    (
        "name missing",
        ["description: d"],
        [("name", None, "Missing required field in frontmatter: name")],
    ),
    (
        "dot in name",
        ["name: pdf.tools", "description: d"],
        [
            (
                "name",
                2,
                "Skill name 'pdf.tools' contains invalid characters. Only letters, digits, and "
                "hyphens are allowed.",
            ),
            ("name", 2, "Directory name 'pdf-tools' must match skill name 'pdf.tools'"),
        ],
    ),
    # strictyaml reads every scalar as its text, as skills-ref does: `description: 42` is "42".
    ("numeric description", ["name: pdf-tools", "description: 42"], []),
    (
        "empty name value reads as ''",
        ["name:", "description: d"],
        [("name", 2, "Field 'name' must be a non-empty string")],
    ),
    (
        "nested metadata",
        ["name: pdf-tools", "description: d", "metadata:", "  hermes:", "    tags: [a]"],
        [("metadata", 4, "Field 'metadata' values must be strings, not in: hermes")],
    ),
    (
        "numeric metadata reads as text",
        ["name: pdf-tools", "description: d", "metadata:", "  v: 1.0"],
        [],
    ),
    (
        "duplicate key",
        ["name: pdf-tools", "name: pdf-tools", "description: d"],
        [("duplicate-key", 3, "Frontmatter key 'name' appears more than once (lines 2, 3)")],
    ),
    (
        "description too long",
        ["name: pdf-tools", "description: " + "d" * 1025],
        [("description", 3, "Description exceeds 1024 character limit (1025 chars)")],
    ),
    (
        "license a list",
        ["name: pdf-tools", "description: d", "license: [MIT]"],
        [("fields", 4, "Field 'license' must be a string")],
    ),
]


@pytest.mark.parametrize(
    ("lines", "expected"), [c[1:] for c in STRICT_CASES], ids=[c[0] for c in STRICT_CASES]
)
def test_strict_mode_frontmatter(
    lines: list[str], expected: list[tuple[str, int | None, str]]
) -> None:
    findings = check(frontmatter(*lines), strict=True)
    assert [(f.level, f.rule, f.line) for f in findings] == [("error", *e[:2]) for e in expected]
    for finding, (_, _, message) in zip(findings, expected, strict=True):
        assert finding.message.startswith(message), finding.message


# --- links --------------------------------------------------------------------------------

SUPPORT: dict[str, str | bytes | None] = {
    "references/api.md": "# API\n",
    "references/my notes.md": "notes\n",
    "assets/logo.png": b"\x89PNG\x00",
}
REPO = frozenset(
    {f"{FOLDER}/{p}" for p in SUPPORT}
    | {f"{FOLDER}/SKILL.md", "skills/shared/style.md", "README.md"}
)

LINK_CASES = [
    ("existing file", "[API](references/api.md)", None),
    ("fragment and query", "[API](references/api.md#auth) [q](references/api.md?x=1)", None),
    ("url-encoded", "[notes](references/my%20notes.md)", None),
    ("angle brackets", "[notes](<references/my notes.md>)", None),
    ("folder", "[refs](references/) and [refs](references)", None),
    ("image", "![logo](assets/logo.png)", None),
    (
        "urls and anchors",
        "[w](https://x.io/a.md) [m](mailto:a@b.c) [s](#setup) [f](ftp://h/x)",
        None,
    ),
    ("absolute and home paths", "[a](/etc/hosts) [b](~/notes.md)", None),
    ("placeholders", "[Finish](url) [t]({baseDir}/x.md) [v]($DIR/x.md)", None),
    (
        "outside the skill, in the repo",
        "[style](../shared/style.md) [readme](../../README.md)",
        None,
    ),
    (
        "missing file",
        "See [API](references/missing.md).",
        "Link to 'references/missing.md' is broken",
    ),
    ("missing image", "![logo](assets/missing.png)", "Link to 'assets/missing.png' is broken"),
    ("missing reference definition", "[api]: references/gone.md", "Link to 'references/gone.md'"),
    ("missing html link", '<a href="docs/x.html">x</a>', "Link to 'docs/x.html' is broken"),
    ("missing in the repo", "[s](../shared/gone.md)", "Link to '../shared/gone.md' is broken"),
    ("leaves the repository", "[p](../../../etc/passwd)", "Link to '../../../etc/passwd' leaves"),
    ("in a backtick fence", "```md\n[x](nope.md)\n```", None),
    ("in a tilde fence", "~~~\n[x](nope.md)\n~~~", None),
    ("in a longer fence", "````\n```\n[x](nope.md)\n```\n````", None),
    ("in inline code", "Write `[x](nope.md)` to link.", None),
    ("in an html comment", "<!-- [x](nope.md)\n[y](nope.md) -->", None),
    ("footnote", "[^1]: see notes.md", None),
]


@pytest.mark.parametrize(
    ("body", "message"), [c[1:] for c in LINK_CASES], ids=[c[0] for c in LINK_CASES]
)
def test_links(body: str, message: str | None) -> None:
    skill = make_skill({"SKILL.md": GOOD + "\n" + body + "\n", **SUPPORT})
    findings = validate_skill(skill, repo_paths=REPO)
    if message is None:
        assert findings == []
    else:
        (finding,) = findings
        assert (finding.level, finding.rule, finding.path, finding.line) == (
            "error",
            "broken-link",
            f"{FOLDER}/SKILL.md",
            6,
        )
        assert finding.message.startswith(message), finding.message


def test_broken_link_names_the_resolved_path() -> None:
    skill = make_skill({"SKILL.md": GOOD + "[a](references/../refs/x.md)\n"})
    (finding,) = validate_skill(skill, repo_paths=REPO)
    expected = f"Link to 'references/../refs/x.md' is broken: {FOLDER}/refs/x.md does not exist"
    assert finding.message == expected


def test_links_outside_the_skill_are_unchecked_without_the_repo_listing() -> None:
    skill = make_skill({"SKILL.md": GOOD + "[a](../other/x.md) [b](nope.md)\n"})
    assert [f.message for f in validate_skill(skill)] == [
        f"Link to 'nope.md' is broken: {FOLDER}/nope.md does not exist"
    ]


def test_link_through_a_symlinked_folder() -> None:
    skill = make_skill(
        {"SKILL.md": GOOD + "[s](shared/style.md) [t](shared/gone.md)\n"},
        symlinks={"shared": "../shared"},
    )
    repo = REPO | {f"{FOLDER}/shared"}
    findings = validate_skill(skill, repo_paths=repo, links={f"{FOLDER}/shared": "../shared"})
    assert [f.message for f in findings] == [
        f"Link to 'shared/gone.md' is broken: {FOLDER}/shared/gone.md does not exist"
    ]


# --- symlinks -----------------------------------------------------------------------------

SYMLINK_CASES = [
    ("to a file in the skill", {"latest.md": "references/api.md"}, None),
    ("to a file in the repo", {"style.md": "../shared/style.md"}, None),
    ("to a folder in the repo", {"shared": "../shared"}, None),
    ("absolute", {"key": "/home/me/.ssh/id_rsa"}, "points to an absolute path outside the repo"),
    ("leaves the repo", {"up": "../../../outside.md"}, "leaves the repository"),
    ("loop", {"a": "b", "b": "a"}, "loops, or leaves the repository through another symlink"),
    (
        "dangling",
        {"gone.md": "references/gone.md"},
        "is dangling: skills/pdf-tools/references/gone",
    ),
]


@pytest.mark.parametrize(
    ("symlinks", "message"), [c[1:] for c in SYMLINK_CASES], ids=[c[0] for c in SYMLINK_CASES]
)
def test_symlinks(symlinks: dict[str, str], message: str | None) -> None:
    skill = make_skill({"SKILL.md": GOOD, **SUPPORT}, symlinks=symlinks)
    links = {f"{FOLDER}/{name}": target for name, target in symlinks.items()}
    findings = validate_skill(skill, repo_paths=REPO | set(links), links=links)
    if message is None:
        assert findings == []
        return
    assert {(f.level, f.rule) for f in findings} == {("error", "symlink")}
    first = findings[0]
    assert first.path == f"{FOLDER}/{next(iter(symlinks))}"
    assert first.message.startswith(f"Symlink to '{symlinks[next(iter(symlinks))]}'")
    assert message in first.message


def test_symlink_leaving_through_a_chain_of_links() -> None:
    links = {f"{FOLDER}/a": "../hop", "skills/hop": "../../.."}
    skill = make_skill({"SKILL.md": GOOD}, symlinks={"a": "../hop"})
    (finding,) = validate_skill(skill, repo_paths=REPO, links=links)
    assert (finding.rule, finding.path) == ("symlink", f"{FOLDER}/a")
    assert "through another symlink" in finding.message


# --- secrets, binary and large files ------------------------------------------------------


def test_secret_in_a_support_file_names_file_line_and_kind_but_not_the_value() -> None:
    notes = f"# Notes\n\nstripe:\n  key: {STRIPE_KEY}\n"
    (finding,) = validate_skill(make_skill({"SKILL.md": GOOD, "references/notes.md": notes}))
    assert summary([finding]) == [("error", "secret", f"{FOLDER}/references/notes.md", 4)]
    assert finding.message.startswith("Possible Stripe Access Key (value not shown)")
    assert "rotate the key" in finding.message
    assert STRIPE_KEY not in finding.message and STRIPE_KEY[8:] not in finding.message


def test_secret_in_skill_md_counts_frontmatter_lines() -> None:
    text = frontmatter("name: pdf-tools", "description: d", f"metadata:\n  key: {STRIPE_KEY}")
    assert summary(check(text)) == [("error", "secret", f"{FOLDER}/SKILL.md", 5)]


def test_binary_files_are_not_scanned() -> None:
    blob = b"\x00\x01" + STRIPE_KEY.encode()
    assert validate_skill(make_skill({"SKILL.md": GOOD, "assets/blob.bin": blob})) == []


def test_files_too_large_to_load_are_a_warning() -> None:
    (finding,) = validate_skill(make_skill({"SKILL.md": GOOD, "assets/video.mp4": None}))
    assert summary([finding]) == [("warning", "large-file", f"{FOLDER}/assets/video.mp4", None)]
    assert finding.message.startswith("File is 5.0 MB, over the 5.0 MB gitcurator reads")
    assert "not scanned for secrets" in finding.message


def test_placeholder_keys_in_docs_pass() -> None:
    body = "Set `AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE` and `ANTHROPIC_API_KEY=<your-key>`.\n"
    assert check(GOOD + body) == []


# --- scripts run directly need their exec bit ---------------------------------------------

EXEC_CASES = [
    ("bare path", "```bash\nscripts/run.sh --all\n```", "scripts/run.sh"),
    ("dot slash", "```\n./scripts/run.sh\n```", "scripts/run.sh"),
    ("after a prompt and cd", "```console\n$ cd /tmp && scripts/run.sh\n```", "scripts/run.sh"),
    ("baseDir", "```sh\n{baseDir}/scripts/run.sh x\n```", "scripts/run.sh"),
    ("skill dir variable", '```bash\nFOO=1 "$SKILL_DIR/scripts/run.sh" x\n```', "scripts/run.sh"),
    ("braced variable", "```bash\n${CLAUDE_SKILL_DIR}/scripts/run.sh\n```", "scripts/run.sh"),
    ("placeholder", "```bash\nSKILL_DIR/scripts/run.sh\n```", "scripts/run.sh"),
    (
        "installed path",
        "```bash\n~/.hermes/skills/docs/pdf-tools/scripts/run.sh\n```",
        "scripts/run.sh",
    ),
    ("after a pipe", "```bash\ncat x | sudo scripts/run.sh\n```", "scripts/run.sh"),
    ("told to run inline", "Run `scripts/run.sh` first.", "scripts/run.sh"),
    ("console line in prose", "$ scripts/run.sh --all", "scripts/run.sh"),
    ("python", "```bash\npython3 scripts/run.py\n```", None),
    ("bash", "```bash\nbash scripts/run.sh\n```", None),
    ("uv run", "```bash\nuv run scripts/run.py\n```", None),
    ("node", "```bash\nnode scripts/build.js\n```", None),
    ("assignment of a command", '```bash\nRUN="python scripts/run.py"\n$RUN list\n```', None),
    ("another skill's scripts", "```bash\nother/scripts/run.sh\n```", None),
    ("redirect target", "```bash\necho hi > scripts/run.sh\n```", None),
    ("python block", "```python\nscripts/run.sh\n```", None),
    ("inline mention", "`scripts/run.sh` does the work.", None),
    ("comment", "```bash\n# scripts/run.sh is optional\n```", None),
    ("not in the skill", "```bash\nscripts/missing.sh\n```", None),
    ("powershell", "```bash\nscripts/run.ps1\n```", None),
]


@pytest.mark.parametrize(
    ("body", "script"), [c[1:] for c in EXEC_CASES], ids=[c[0] for c in EXEC_CASES]
)
def test_scripts_run_directly_must_be_executable(body: str, script: str | None) -> None:
    files = {
        "SKILL.md": GOOD + "\n" + body + "\n",
        "scripts/run.sh": "#!/bin/sh\n",
        "scripts/run.py": "print()\n",
        "scripts/build.js": "1\n",
        "scripts/run.ps1": "1\n",
    }
    findings = validate_skill(make_skill(files))
    if script is None:
        assert findings == []
        return
    (finding,) = findings
    path = f"{FOLDER}/{script}"
    line = 7 if body.startswith("```") else 6  # the command, after the fence if there is one
    assert summary([finding]) == [("error", "not-executable", path, None)]
    assert finding.message == (
        f"SKILL.md line {line} runs {script} directly, but it is not executable; "
        f"run `chmod +x {path}` and `git add --chmod=+x {path}`"
    )


# Bodies as real libraries write them (the two false positives that blocked `init` on a
# public scientific library were of the first kind).
REALISTIC_BODIES = [
    (
        "prose names the script, blocks run it through python",
        "## Usage\n\n```bash\npython scripts/run.py data/input.csv --out results/\n```\n\n"
        "The helper `scripts/run.py input.csv --normalize` writes one table per sample; "
        "pass `--plot` to draw them.\n",
        [],
    ),
    (
        "told to run, blocks run it through python",
        "Run `scripts/run.py --check` before fitting.\n\n```bash\nuv run scripts/run.py\n```\n",
        [],
    ),
    (
        "only inline code with arguments",
        "Fit the model with `scripts/run.py data.csv --epochs 10`, then read the log.\n",
        [("warning", "scripts/run.py", "SKILL.md line 6 names scripts/run.py with arguments")],
    ),
    (
        "a block runs it directly, prose mentions it too",
        'Use `scripts/run.sh --all` to rebuild.\n\n```bash\ncd "$SKILL_DIR"\n'
        "./scripts/run.sh --all\n```\n",
        [("error", "scripts/run.sh", "SKILL.md line 10 runs scripts/run.sh directly")],
    ),
]


@pytest.mark.parametrize(
    ("body", "expected"),
    [c[1:] for c in REALISTIC_BODIES],
    ids=[c[0] for c in REALISTIC_BODIES],
)
def test_not_executable_only_for_direct_runs(
    body: str, expected: list[tuple[str, str, str]]
) -> None:
    files = {"SKILL.md": GOOD + "\n" + body, "scripts/run.sh": "#!/bin/sh\n", "scripts/run.py": "1"}
    findings = validate_skill(make_skill(files))
    assert [(f.level, f.path) for f in findings] == [
        (level, f"{FOLDER}/{script}") for level, script, _ in expected
    ]
    for finding, (_, _, message) in zip(findings, expected, strict=True):
        assert finding.rule == "not-executable"
        assert finding.message.startswith(message), finding.message


def test_executable_scripts_and_repeated_runs() -> None:
    body = "```bash\nscripts/run.sh\nscripts/run.sh again\nscripts/other.sh\n```\n"
    files = {"SKILL.md": GOOD + body, "scripts/run.sh": "#!/bin/sh\n", "scripts/other.sh": "x"}
    skill = make_skill(files, executable=frozenset({"scripts/other.sh"}))
    (finding,) = validate_skill(skill)
    assert finding.path == f"{FOLDER}/scripts/run.sh"
    assert finding.message.startswith("SKILL.md line 6 runs scripts/run.sh directly")


# --- long bodies --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "warned"),
    [
        ("line\n" * 500, False),
        ("line\n" * 501, True),
        ("x" * 20_000, False),
        ("x" * 20_004, True),
    ],
)
def test_long_body_warning(body: str, warned: bool) -> None:
    findings = check(GOOD + body)
    if not warned:
        assert findings == []
        return
    (finding,) = findings
    assert summary([finding]) == [("warning", "long-body", f"{FOLDER}/SKILL.md", 5)]
    assert "(limits: 500 lines, ~5000 tokens); move detail into references/" in finding.message


# --- names across the repository ----------------------------------------------------------


@pytest.mark.parametrize(
    ("named", "expected"),
    [
        ([("a", "x/SKILL.md"), ("b", "y/SKILL.md")], []),
        (
            [("pdf", "x/SKILL.md"), ("pdf", "y/SKILL.md")],
            [("x/SKILL.md", "y/SKILL.md"), ("y/SKILL.md", "x/SKILL.md")],
        ),
        (
            [("ﬁle", "a/SKILL.md"), ("file", "b/SKILL.md"), ("other", "c/SKILL.md")],
            [("a/SKILL.md", "b/SKILL.md"), ("b/SKILL.md", "a/SKILL.md")],
        ),
        (
            [("p", "c/SKILL.md"), ("p", "a/SKILL.md"), ("p", "b/SKILL.md")],
            [
                ("a/SKILL.md", "b/SKILL.md, c/SKILL.md"),
                ("b/SKILL.md", "a/SKILL.md, c/SKILL.md"),
                ("c/SKILL.md", "a/SKILL.md, b/SKILL.md"),
            ],
        ),
        ([("PDF", "x/SKILL.md"), ("pdf", "y/SKILL.md")], []),
    ],
)
def test_duplicate_names(named: list[tuple[str, str]], expected: list[tuple[str, str]]) -> None:
    findings = duplicate_names(named)
    assert [(f.path, f.level, f.rule) for f in findings] == [
        (path, "error", "duplicate-name") for path, _ in expected
    ]
    for finding, (_, others) in zip(findings, expected, strict=True):
        assert f"is also used by {others}; rename one" in finding.message


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (frontmatter("name: pdf", "description: d"), "pdf"),
        (frontmatter("name: '  pdf  '", "description: d"), "pdf"),
        (frontmatter("description: d"), "pdf-tools"),
        (frontmatter("name: [pdf]", "description: d"), "pdf-tools"),
        ("no frontmatter", "pdf-tools"),
        (None, "pdf-tools"),
    ],
)
def test_skill_name(text: str | None, name: str) -> None:
    skill = make_skill({"SKILL.md": text})
    assert skill_name(skill) == name
    validate_skill(skill)  # fills the name cache; the answer must not change
    assert skill_name(skill) == name


def test_finding_to_json() -> None:
    finding = Finding("error", "a/SKILL.md", "Something", "parse", 3)
    assert finding.to_json() == {
        "level": "error",
        "path": "a/SKILL.md",
        "line": 3,
        "rule": "parse",
        "message": "Something",
    }

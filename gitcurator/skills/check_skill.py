"""Validate skills: frontmatter rules, links, symlinks, secrets, exec bits, sizes (pure)."""

from __future__ import annotations

import hashlib
import posixpath
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

from gitcurator.skills.document import (
    MAX_SKILL_MD_BYTES,
    SKILL_FILE,
    SKILL_FILE_LOWER,
    SkillDoc,
    SkillParseError,
    parse_skill_md,
)
from gitcurator.skills.files import MAX_LOADED_BYTES, FileEntry, SkillFiles, resolve_link
from gitcurator.skills.frontmatter import check_frontmatter
from gitcurator.skills.frontmatter_source import FrontmatterSource
from gitcurator.skills.known_paths import KnownPaths
from gitcurator.skills.links import ScriptWord, commands_naming, link_targets
from gitcurator.skills.secrets import scan_text

MAX_BODY_LINES = 500
MAX_BODY_TOKENS = 5000
CHARS_PER_TOKEN = 4  # the usual estimate for English prose and code

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# Links we cannot resolve without running something: templates, globs, placeholders.
_TEMPLATED = re.compile(r"[{}$<>*]")
_SCRIPT_PREFIX = re.compile(r"(?:\./|\{\w+\}/|\$\{?\w+\}?/|[A-Z][A-Z0-9_]*/)?")
_SCRIPTS = "scripts/"
_NO_EXEC_BIT = (".ps1", ".bat", ".cmd")
# The frontmatter fields Codex's loader deserialises (codex-rs/core/src/skills/loader.rs).
_CODEX_FIELDS = frozenset({"name", "description", "metadata"})
# Names by content digest, so skill_name() after validate_skill() does not parse again.
_NAMES: dict[bytes, str | None] = {}
_NAMES_LIMIT = 100_000


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in one file; `line` is 1-based where it applies."""

    level: str  # "error" | "warning"
    path: str
    message: str
    rule: str
    line: int | None = None

    def to_json(self) -> dict[str, object]:
        """The finding as a JSON object (the `--json` output of validate)."""
        return {
            "level": self.level,
            "path": self.path,
            "line": self.line,
            "rule": self.rule,
            "message": self.message,
        }


def validate_skill(
    skill: SkillFiles,
    *,
    strict: bool = False,
    repo_paths: frozenset[str] = frozenset(),
    links: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Every finding for one skill; `repo_paths` and `links` describe the whole repository
    (without them, links and symlinks leaving the skill folder are not checked for existence)."""
    return validate_skill_alone(skill, strict=strict, repo_paths=repo_paths, links=links)[0]


def validate_skill_alone(
    skill: SkillFiles,
    *,
    strict: bool = False,
    repo_paths: frozenset[str] = frozenset(),
    links: Mapping[str, str] | None = None,
) -> tuple[list[Finding], bool]:
    """validate_skill's findings, and whether they follow from the skill's own files alone
    (no symlink, no link whose existence was looked up outside its folder): only then may
    they be cached by the folder's content."""
    files = KnownPaths(skill, repo_paths, links)
    findings = list(_check_skill_md(skill, files, strict))
    findings.extend(_check_symlinks(skill, files))
    findings.extend(_check_contents(skill))
    alone = not files.looked_outside and not any(e.is_symlink for e in skill.entries)
    return sorted(findings, key=lambda f: (f.path, f.line or 0, f.rule)), alone


def duplicate_names(named: Sequence[tuple[str, str]]) -> list[Finding]:
    """An error on each SKILL.md whose (NFKC-normalised) name another live skill also has."""
    groups: dict[str, list[str]] = {}
    for name, path in named:
        groups.setdefault(unicodedata.normalize("NFKC", name.strip()), []).append(path)
    findings = []
    for name, paths in groups.items():
        for path in paths:
            others = sorted({p for p in paths if p != path})
            if others:
                message = (
                    f"Skill name '{name}' is also used by {', '.join(others)}; "
                    "rename one (agents pick skills by name)"
                )
                findings.append(Finding("error", path, message, "duplicate-name"))
    return sorted(findings, key=lambda f: f.path)


def skill_name(skill: SkillFiles) -> str:
    """The skill's frontmatter name if it parses as a string, else its folder name."""
    entry = skill.get(skill.skill_md)
    if entry is not None and entry.data is not None and not entry.is_symlink:
        digest = _digest(entry.data)
        if digest not in _NAMES:
            try:
                _remember_name(digest, parse_skill_md(entry.data))
            except SkillParseError:
                _NAMES[digest] = None
        name = _NAMES[digest]
        if name:
            return name
    return posixpath.basename(skill.folder)


def frontmatter_name(data: bytes) -> str:
    """A SKILL.md's `name:` as a string ("" when it has none or does not parse), parsed once
    per content in this process (validation already did, for every skill it checked)."""
    digest = _digest(data)
    if digest not in _NAMES:
        try:
            _remember_name(digest, parse_skill_md(data))
        except SkillParseError:
            _NAMES[digest] = None
    return _NAMES[digest] or ""


def _check_skill_md(skill: SkillFiles, files: KnownPaths, strict: bool) -> Iterator[Finding]:
    path = skill.skill_md
    if path.endswith("/" + SKILL_FILE_LOWER):
        message = (
            f"File is named {SKILL_FILE_LOWER}; rename it to {SKILL_FILE} (Codex and Hermes "
            f"look for {SKILL_FILE} by its exact name and do not load this skill)"
        )
        yield Finding("error", path, message, "lowercase-file")
    entry = files.entries.get(path)
    if entry is None:
        yield Finding("error", path, f"{SKILL_FILE} is missing from the skill's files", "parse")
        return
    if entry.is_symlink and entry.data is None:
        message = (
            f"{SKILL_FILE} is a symlink to '{entry.link_target}'; its content was not validated"
        )
        yield Finding("warning", path, message, "symlink")
        return
    if entry.data is None:
        message = (
            f"{SKILL_FILE} is {_size(entry.size)}, too large to read; it must be under "
            f"{_size(MAX_SKILL_MD_BYTES)} (move long material to references/)"
        )
        yield Finding("error", path, message, "large-file")
        return
    try:
        doc = parse_skill_md(entry.data)
    except SkillParseError as exc:
        message = (strict and exc.reference_message) or f"{SKILL_FILE} {exc.message}"
        yield Finding("error", path, message, "parse", exc.line)
        return
    _remember_name(_digest(entry.data), doc)
    if doc.had_bom:
        message = (
            "File starts with a UTF-8 byte-order mark: Codex then finds no frontmatter and "
            "does not load the skill (Hermes strips it); save it as UTF-8 without BOM"
        )
        yield Finding("error", path, message, "encoding", 1)
    yield from _check_frontmatter(skill, doc, entry.data, strict)
    yield from _check_body(skill, doc, files)


def _check_frontmatter(
    skill: SkillFiles, doc: SkillDoc, data: bytes, strict: bool
) -> Iterator[Finding]:
    source = FrontmatterSource(data, doc.body_line)
    dirname = posixpath.basename(skill.folder)
    problems = check_frontmatter(
        doc.frontmatter, dirname, strict=strict, scalar_text=source.scalar_text
    )
    for problem in problems:
        line = source.line_of(problem.field) if problem.field else None
        yield Finding(problem.level, skill.skill_md, problem.message, problem.rule, line)
    for key, lines in source.duplicate_keys():
        # Codex reads name, description and metadata into a struct, and serde refuses a
        # field given twice; any other key it ignores, and PyYAML keeps the last value.
        refused = strict or key in _CODEX_FIELDS
        message = (
            f"Frontmatter key '{key}' appears more than once (lines "
            f"{', '.join(map(str, lines))}); "
            + (
                "Codex does not load the skill (Hermes keeps the last value)"
                if key in _CODEX_FIELDS
                else "YAML clients keep the last value, strict parsers refuse the file"
            )
        )
        level = "error" if refused else "warning"
        yield Finding(level, skill.skill_md, message, "duplicate-key", lines[-1])


def _check_body(skill: SkillFiles, doc: SkillDoc, files: KnownPaths) -> Iterator[Finding]:
    path = skill.skill_md
    body = doc.body.rstrip("\n")
    n_lines = body.count("\n") + 1 if body.strip() else 0
    tokens = len(body) // CHARS_PER_TOKEN
    if n_lines > MAX_BODY_LINES or tokens > MAX_BODY_TOKENS:
        message = (
            f"Body is {n_lines} lines and ~{tokens} tokens (limits: {MAX_BODY_LINES} lines, "
            f"~{MAX_BODY_TOKENS} tokens); move detail into references/ so it loads only "
            "when needed"
        )
        yield Finding("warning", path, message, "long-body", doc.body_line)
    for line, dest in link_targets(doc.body, doc.body_line):
        broken = _broken_link(dest, skill, files)
        if broken is not None:
            yield Finding("error", path, broken, "broken-link", line)
    yield from _check_exec_bits(skill, doc, files)


def _broken_link(dest: str, skill: SkillFiles, files: KnownPaths) -> str | None:
    dest = dest.strip()
    if not dest or dest.startswith(("#", "/", "~", "\\")) or _SCHEME.match(dest):
        return None
    relative = unquote(dest.split("#", 1)[0].split("?", 1)[0])
    # A bare word (`[Finish in Shop](url)`) is a placeholder the agent fills in, not a path.
    if not relative or _TEMPLATED.search(relative) or not ("/" in relative or "." in relative):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(skill.skill_md), relative))
    if target == ".." or target.startswith("../"):
        return f"Link to '{dest}' leaves the repository; link to a file inside it"
    if files.exists("" if target == "." else target):
        return None
    return f"Link to '{dest}' is broken: {target} does not exist"


def _check_exec_bits(skill: SkillFiles, doc: SkillDoc, files: KnownPaths) -> Iterator[Finding]:
    """A script the body runs as a command needs its exec bit: an error where a shell line or
    an instruction to run runs it so, a warning where only inline code with arguments does;
    nothing where the skill's code runs it through an interpreter (`python scripts/x.py`)."""
    dirname = posixpath.basename(skill.folder)
    uses: dict[str, list[ScriptWord]] = {}
    for use in commands_naming(_SCRIPTS, doc.body, doc.body_line):
        relative = _script_in_skill(use.word, dirname)
        if relative is not None and not relative.lower().endswith(_NO_EXEC_BIT):
            uses.setdefault(posixpath.normpath(f"{skill.folder}/{relative}"), []).append(use)
    for path, found in uses.items():
        entry = files.entries.get(path)
        if entry is None or entry.is_symlink or entry.executable:
            continue
        how = {use.how for use in found}
        direct = [use for use in found if use.how == "shell"]
        if not direct and "argument" in how:
            continue  # the skill's own commands run it through an interpreter
        direct = direct or [use for use in found if use.how == "told"]
        first = (direct or found)[0]
        relative = path[len(skill.folder) + 1 :]
        fix = f"run `chmod +x {path}` and `git add --chmod=+x {path}`"
        if direct:
            message = (
                f"{SKILL_FILE} line {first.line} runs {relative} directly, but it is not "
                f"executable; {fix}"
            )
            yield Finding("error", path, message, "not-executable")
        else:
            message = (
                f"{SKILL_FILE} line {first.line} names {relative} with arguments in inline code, "
                f"and it is not executable: if agents are to run it as written, {fix}; "
                f"else show the interpreter (`python {relative} ...`)"
            )
            yield Finding("warning", path, message, "not-executable")


def _script_in_skill(word: str, dirname: str) -> str | None:
    """`scripts/...` relative to the skill folder when `word` names one of its scripts:
    bare, `./`, `{baseDir}/`, `$SKILL_DIR/`, `SKILL_DIR/`, or a path ending in the folder."""
    at = word.find("scripts/")
    while at != -1:
        prefix = word[:at]
        if _SCRIPT_PREFIX.fullmatch(prefix) or f"/{prefix}".endswith(f"/{dirname}/"):
            return word[at:]
        at = word.find("scripts/", at + 1)
    return None


def _check_symlinks(skill: SkillFiles, files: KnownPaths) -> Iterator[Finding]:
    for entry in skill.entries:
        if entry.link_target is None:
            continue
        target = resolve_link(entry.path, entry.link_target, files.links)
        if target is None:
            yield Finding("error", entry.path, _escape_reason(entry), "symlink")
        elif not files.exists(target):
            message = f"Symlink to '{entry.link_target}' is dangling: {target} does not exist"
            yield Finding("error", entry.path, message, "symlink")


def _escape_reason(entry: FileEntry) -> str:
    target = entry.link_target or ""
    first_hop = posixpath.normpath(posixpath.join(posixpath.dirname(entry.path), target))
    if target.startswith("/"):
        why = "points to an absolute path outside the repository"
    elif first_hop == ".." or first_hop.startswith("../"):
        why = "leaves the repository"
    else:
        why = "loops, or leaves the repository through another symlink"
    return (
        f"Symlink to '{target}' {why}; replace it with the file itself "
        "(other clones cannot follow it)"
    )


def _check_contents(skill: SkillFiles) -> Iterator[Finding]:
    for entry in skill.entries:
        if entry.is_symlink:
            continue
        if entry.data is None:
            if entry.path != skill.skill_md:
                message = (
                    f"File is {_size(entry.size)}, over the {_size(MAX_LOADED_BYTES)} gitcurator "
                    "reads: not scanned for secrets (keep large data out of skills)"
                )
                yield Finding("warning", entry.path, message, "large-file")
            continue
        if b"\x00" in entry.data[:8192]:
            continue  # binary: keys in images or archives are out of reach of text patterns
        for line, kind in scan_text(entry.data.decode("utf-8", errors="replace")):
            message = (
                f"Possible {kind} (value not shown); remove it, rotate the key, and purge it "
                "from git history if it was ever committed"
            )
            yield Finding("error", entry.path, message, "secret", line)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _remember_name(digest: bytes, doc: SkillDoc) -> None:
    if len(_NAMES) >= _NAMES_LIMIT:
        _NAMES.clear()
    _NAMES[digest] = doc.name or None


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} bytes"

"""SKILL.md ⇄ data, and which folders of a file listing are skills (pure: no I/O)."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable, Sequence
from typing import Any

from gitcurator.frozen_rows import frozen_row

# Named here too, as every caller has always imported them (explicit re-exports).
from gitcurator.skills.folder_names import SKILL_FILE as SKILL_FILE
from gitcurator.skills.folder_names import SKILL_FILE_LOWER as SKILL_FILE_LOWER
from gitcurator.skills.folder_names import SKIPPED_DIRS as SKIPPED_DIRS
from gitcurator.skills.folder_names import VENV_MARKER as VENV_MARKER
from gitcurator.skills.plain_frontmatter import plain_mapping

ARCHIVE_DIR = ".archive"
# Dot-folders whose SKILL.md files are not skills anyone lost: retired ones, git's storage.
_NOT_HIDDEN = frozenset({ARCHIVE_DIR, ".git"})
# A SKILL.md larger than this is refused unread; real ones are a few KB.
MAX_SKILL_MD_BYTES = 1024 * 1024

_FENCE = re.compile(r"^---[ \t]*$")
# PyYAML is imported where a SKILL.md is parsed or written, not with this module: a command
# answered from its caches (`validate` of an unchanged library) never needs its 20-40 ms.
# What PyYAML raises, besides YAMLError, for text it parses but cannot build into values (found
# by bench/fuzz_parsers.py): a date 2026-02-30 or year 0 and an integer past Python's digit
# limit (ValueError), `!!float ''` (IndexError), `!!timestamp x` (AttributeError), nesting past
# the pure-Python loader's recursion (RecursionError). Every reader of YAML text catches these.
_VALUE_ERRORS = (ValueError, TypeError, LookupError, AttributeError, ArithmeticError)
YAML_BUILD_ERRORS = (*_VALUE_ERRORS, RecursionError)


class SkillParseError(Exception):
    """SKILL.md cannot be read as frontmatter + body; `line` is 1-based when known, `kind`
    one of _REFERENCE_WORDING's keys where skills-ref has words for the problem."""

    def __init__(
        self, message: str, line: int | None = None, kind: str = "", detail: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.kind = kind
        self.detail = detail

    @property
    def reference_message(self) -> str | None:
        """The problem in skills-ref 0.1.1's words (what `--strict` prints), if it has any."""
        words = _REFERENCE_WORDING.get(self.kind)
        return f"{words}: {self.detail}" if words and self.detail else words


# skills-ref's parse messages (skills_ref/parser.py), which --strict repeats word for word.
_REFERENCE_WORDING = {
    "start": "SKILL.md must start with YAML frontmatter (---)",
    "unclosed": "SKILL.md frontmatter not properly closed with ---",
    "yaml": "Invalid YAML in frontmatter",
    "mapping": "SKILL.md frontmatter must be a YAML mapping",
}


@frozen_row
class SkillDoc:
    """A parsed SKILL.md."""

    frontmatter: dict[str, Any]
    body: str
    body_line: int  # 1-based line number of the first body line
    had_bom: bool
    crlf: bool

    @property
    def name(self) -> str | None:
        value = self.frontmatter.get("name")
        return value.strip() if isinstance(value, str) else None

    @property
    def description(self) -> str | None:
        value = self.frontmatter.get("description")
        return value.strip() if isinstance(value, str) else None


def decode_skill_md(data: bytes) -> tuple[str, bool]:
    """Bytes → text and whether a UTF-8 BOM was present; refuses binary and non-UTF-8."""
    if len(data) > MAX_SKILL_MD_BYTES:
        raise SkillParseError(
            f"is {_size(len(data))}; a SKILL.md must be under {_size(MAX_SKILL_MD_BYTES)} "
            "(move long material to references/)"
        )
    if b"\x00" in data[:8192]:
        raise SkillParseError("is a binary file, not UTF-8 Markdown text")
    had_bom = data.startswith(b"\xef\xbb\xbf")
    try:
        text = data[3:].decode("utf-8") if had_bom else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SkillParseError(
            f"is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})", line
        ) from None
    return text, had_bom


def parse_skill_md(data: bytes) -> SkillDoc:
    """Parse SKILL.md bytes; the closing `---` must stand alone on its line."""
    text, had_bom = decode_skill_md(data)
    crlf = "\r\n" in text
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not text.strip():
        raise SkillParseError("is empty; it needs YAML frontmatter between '---' lines", 1, "start")
    if not _FENCE.match(lines[0]):
        message = "must start with YAML frontmatter (a first line of '---')"
        raise SkillParseError(message, 1, "start")
    end = next((i for i in range(1, len(lines)) if _FENCE.match(lines[i])), None)
    if end is None:
        message = "frontmatter is not closed: no line of '---' after the first"
        raise SkillParseError(message, 1, "unclosed")
    import yaml

    # libyaml's loader parses frontmatter ~8x faster than the pure-Python one: it decides
    # whether validating a library of thousands of skills takes seconds or tens of seconds.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data_doc = plain_mapping(lines[1:end])
        if data_doc is None:
            data_doc = yaml.load("\n".join(lines[1:end]), Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        # libyaml marks errors at the end of the stream one line past the frontmatter.
        line = min(mark.line + 2, end) if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        message = f"frontmatter is not valid YAML: {problem}"
        raise SkillParseError(message, line, "yaml", str(problem)) from None
    except YAML_BUILD_ERRORS as exc:
        problem = yaml_build_problem(exc)
        message = f"frontmatter is not valid YAML: {problem}"
        raise SkillParseError(message, None, "yaml", problem) from None
    if data_doc is None:
        data_doc = {}
    if not isinstance(data_doc, dict):
        raise SkillParseError(
            f"frontmatter must be a YAML mapping (key: value), not a {_yaml_kind(data_doc)}",
            2,
            "mapping",
        )
    body = "\n".join(lines[end + 1 :])
    return SkillDoc({str(k): v for k, v in data_doc.items()}, body, end + 2, had_bom, crlf)


def render_skill_md(frontmatter: dict[str, Any], body: str) -> str:
    """A SKILL.md text from frontmatter and body (the inverse of parse_skill_md)."""
    import yaml

    head = yaml.safe_dump(frontmatter, sort_keys=False, allow_unicode=True, width=100)
    if "\x85" in head:
        # libyaml writes U+0085 (NEL) raw inside a quoted scalar and reads it back as a line
        # break, so the value would change; escaped (ASCII) output keeps it.
        head = yaml.safe_dump(frontmatter, sort_keys=False, allow_unicode=False, width=100)
    return f"---\n{head}---\n{body.lstrip(chr(10))}"


@frozen_row
class SkillLocation:
    """Where a skill sits: `folder` is repo-relative (posix), `category` the folders above it."""

    folder: str
    skill_md: str
    archived: bool = False
    skills_dir: str = ""  # the library's root inside the repository, if not the top

    @property
    def dirname(self) -> str:
        return self.folder.rpartition("/")[2]  # posixpath.basename, a third the cost

    @property
    def category(self) -> str:
        """The category folders between the library root (or its .archive/) and the skill."""
        parent = posixpath.dirname(self.folder)
        root = self.skills_dir.strip("/")
        if root:
            parent = parent[len(root) + 1 :] if parent.startswith(root + "/") else ""
        if self.archived:
            parent = parent.partition("/")[2] if "/" in parent else ""
        return parent

    @property
    def lowercase_file(self) -> bool:
        return self.skill_md.endswith("/" + SKILL_FILE_LOWER)


def is_skipped_component(part: str) -> bool:
    """A folder name that never holds skills (dot-folders, dependency trees, environments)."""
    return part.startswith(".") or part in SKIPPED_DIRS


def find_skills(
    paths: Iterable[str], skills_dir: str = "", include: Sequence[str] = ()
) -> list[SkillLocation]:
    """The live and archived skills among repo-relative file `paths`, sorted by folder.

    A skill is the outermost folder holding SKILL.md (or skill.md); deeper SKILL.md files are
    support files of that skill. Archived skills sit under `<skills_dir>/.archive/`. Skills
    under dot-folders are left out unless a glob of `include` (the config's `include:`,
    relative to skills_dir) matches the dot-folder.
    """
    return discover_skills(paths, skills_dir, include)[0]


def hidden_skill_files(
    paths: Iterable[str], skills_dir: str = "", include: Sequence[str] = ()
) -> list[str]:
    """The SKILL.md files left out because they sit under a dot-folder (not `.archive/` or
    `.git/`) that `include` does not name: skills a client such as Codex may load
    (`.system/`) but that gitcurator would otherwise pass over in silence."""
    return discover_skills(paths, skills_dir, include)[1]


def discover_skills(
    paths: Iterable[str], skills_dir: str = "", include: Sequence[str] = ()
) -> tuple[list[SkillLocation], list[str]]:
    """find_skills() and hidden_skill_files() in one walk over `paths`."""
    # One pass with str methods only: posixpath.dirname per path and per ancestor cost 1.7 s
    # a `run` at 10,000 skills (find_skills is called several times a command).
    root = skills_dir.strip("/")
    prefix = root + "/" if root else ""
    archive_prefix = prefix + ARCHIVE_DIR + "/"
    candidates: dict[str, str] = {}
    venvs: set[str] = set()
    for path in paths:
        if not path.startswith(prefix):
            continue
        folder, _, base = path.rpartition("/")
        if base == VENV_MARKER:
            venvs.add(_folder_of(path, folder))
        elif base in (SKILL_FILE, SKILL_FILE_LOWER):
            folder = _folder_of(path, folder)
            if folder == root:
                continue
            if base == SKILL_FILE_LOWER and candidates.get(folder, "").endswith(SKILL_FILE):
                continue
            candidates[folder] = path
    found: list[SkillLocation] = []
    hidden: list[str] = []
    taken: set[str] = set()
    for folder in sorted(candidates):
        if _under(folder, taken) or (venvs and has_ancestor_in(folder, venvs, inclusive=True)):
            continue
        archived = folder.startswith(archive_prefix)
        rel = folder[len(archive_prefix if archived else prefix) :]
        if rel[:1] == "." or "/." in rel or not SKIPPED_DIRS.isdisjoint(rel.split("/")):
            skipped = _skipped_part(rel, include)
            if skipped is not None:
                if (
                    skipped.startswith(".")
                    and skipped not in _NOT_HIDDEN
                    and not has_ancestor_in(
                        folder, {h.rpartition("/")[0] for h in hidden}, inclusive=True
                    )
                ):
                    hidden.append(candidates[folder])
                continue
        taken.add(folder)
        found.append(SkillLocation(folder, candidates[folder], archived, root))
    return found, hidden


def _folder_of(path: str, head: str) -> str:
    """posixpath.dirname(path), given `head` (path.rpartition("/")[0]): the same but for a
    path with doubled or leading slashes, which dirname normalises."""
    if head.endswith("/") or (not head and path[:1] == "/"):
        return posixpath.dirname(path)
    return head


def _under(folder: str, roots: set[str]) -> bool:
    """has_ancestor_in(folder, roots) for the folders find_skills meets, without dirname."""
    if not roots:
        return False
    if "//" in folder or folder[:1] == "/":
        return has_ancestor_in(folder, roots)
    end = folder.rfind("/")
    while end > 0:
        if folder[:end] in roots:
            return True
        end = folder.rfind("/", 0, end)
    return False


def _skipped_part(rel: str, include: Sequence[str]) -> str | None:
    """The first folder name of `rel` that keeps it from being a skill, if any."""
    parts = rel.split("/")
    for i, part in enumerate(parts):
        if not is_skipped_component(part):
            continue
        if part.startswith(".") and _included("/".join(parts[: i + 1]), include):
            continue
        return part
    return None


def _included(folder: str, include: Sequence[str]) -> bool:
    # A glob names a folder (`.curated`, `.system/*`): what it matches and everything below.
    probe = folder
    while probe:
        if any(fnmatch.fnmatchcase(probe, glob.strip("/")) for glob in include):
            return True
        probe = posixpath.dirname(probe)
    return False


def skill_of(path: str, skills: Iterable[SkillLocation]) -> SkillLocation | None:
    """The skill whose folder holds `path` (or is `path`), if any."""
    for skill in skills:
        if path == skill.folder or path.startswith(skill.folder + "/"):
            return skill
    return None


def has_ancestor_in(folder: str, roots: set[str], inclusive: bool = False) -> bool:
    """Whether a folder above `folder` (or `folder` itself, if `inclusive`) is in `roots`."""
    if not roots:
        return False
    if inclusive and folder in roots:
        return True
    parent = posixpath.dirname(folder)
    while parent:
        if parent in roots:
            return True
        parent = posixpath.dirname(parent)
    return False


def yaml_build_problem(exc: BaseException) -> str:
    """What went wrong building YAML values, in words (one of YAML_BUILD_ERRORS)."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return f"a value cannot be read ({exc or type(exc).__name__})"


def _yaml_kind(value: object) -> str:
    return {list: "list", str: "plain string", int: "number", float: "number"}.get(
        type(value), type(value).__name__
    )


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} bytes"

"""An umbrella commit's content judged by the pass's guards (pure): eligible skills only, no
live skill overwritten, support files re-homed whole, enough of each skill kept."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from gitcurator.audit.umbrella_check import UmbrellaCommit, UmbrellaGuards, umbrella_guard_problem

FILE, EXEC = 0o100644, 0o100755
TABLES = (
    "Extract tables from PDF files with pdfplumber: open the file, walk pages, call "
    "extract_tables, write rows to csv files."
)
IMAGES = (
    "Extract images from PDF files with pdfplumber: open the file, walk pages, read page "
    "images, save each bounding box as png."
)
BLOBS: dict[bytes, bytes] = {}


def blob(data: str | bytes) -> bytes:
    raw = data.encode() if isinstance(data, str) else data
    sha = hashlib.sha1(raw).hexdigest().encode()
    BLOBS[sha] = raw
    return sha


def skill(name: str, text: str) -> tuple[bytes, int]:
    front = f"name: {name}\ndescription: {json.dumps(text[:60])}"
    return blob(f"---\n{front}\n---\n\n{text}\n"), FILE


GUARDS = UmbrellaGuards(
    ineligible={"pdf-user": "origin user: only agent-made skills are curated"},
    known=frozenset({"pdf-tables", "pdf-images", "pdf-user", "pdf-tools"}),
    min_retention=0.5,
    load=BLOBS.__getitem__,
)
SCRIPT = (blob("import pdfplumber\n"), EXEC)


def umbrella(**change: Any) -> UmbrellaCommit:
    """pdf-tables and pdf-images folded into a new umbrella pdf-extraction, done right."""
    files: dict[str, Any] = {
        "pdf-tables/SKILL.md": (skill("pdf-tables", TABLES), None),
        "pdf-tables/scripts/extract.py": (SCRIPT, None),
        "pdf-images/SKILL.md": (skill("pdf-images", IMAGES), None),
        ".archive/pdf-tables/SKILL.md": (None, skill("pdf-tables", TABLES)),
        ".archive/pdf-tables/scripts/extract.py": (None, SCRIPT),
        ".archive/pdf-images/SKILL.md": (None, skill("pdf-images", IMAGES)),
        "pdf-extraction/SKILL.md": (None, skill("pdf-extraction", f"{TABLES}\n\n{IMAGES}")),
        "pdf-extraction/scripts/pdf-tables/extract.py": (None, SCRIPT),
    }
    files.update(change.pop("files", {}))
    fields: dict[str, Any] = {
        "short": "abc123def456",
        "name": "pdf-extraction",
        "home": "pdf-extraction",
        "files": {p: v for p, v in files.items() if v is not None},
        "moved": {"pdf-tables": ".archive/pdf-tables", "pdf-images": ".archive/pdf-images"},
        "skills_before": {
            "pdf-tables": "pdf-tables",
            "pdf-images": "pdf-images",
            "pdf-user": "pdf-user",
            "tools/pdf-tools": "pdf-tools",
        },
    }
    fields.update(change)
    return UmbrellaCommit(**fields)


def test_an_umbrella_a_pass_would_write_passes() -> None:
    assert umbrella_guard_problem(umbrella(), GUARDS) is None


def test_folding_into_an_eligible_sibling_passes() -> None:
    host = umbrella(
        name="pdf-tables",
        home="pdf-tables",
        moved={"pdf-images": ".archive/pdf-images"},
        files={
            "pdf-tables/SKILL.md": (
                skill("pdf-tables", TABLES),
                skill("pdf-tables", f"{TABLES}\n\n{IMAGES}"),
            ),
            "pdf-tables/scripts/extract.py": None,
            ".archive/pdf-tables/SKILL.md": None,
            ".archive/pdf-tables/scripts/extract.py": None,
            "pdf-extraction/SKILL.md": None,
            "pdf-extraction/scripts/pdf-tables/extract.py": None,
        },
    )
    assert umbrella_guard_problem(host, GUARDS) is None


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            {
                "name": "pdf-user",
                "home": "pdf-user",
                "files": {
                    "pdf-user/SKILL.md": (skill("pdf-user", "mine"), skill("pdf-user", TABLES)),
                    "pdf-extraction/SKILL.md": None,
                },
            },
            "commit abc123def456 rewrites pdf-user/SKILL.md, but pdf-user may not be changed: "
            "origin user: only agent-made skills are curated",
        ),
        (
            {"name": "pdf-tool", "home": "pdf-extraction"},
            "writes umbrella pdf-tool as pdf-extraction/SKILL.md, another folder's name",
        ),
        (
            {
                "name": "PDF-Tools",
                "home": "PDF-Tools",
                "files": {
                    "PDF-Tools/SKILL.md": (None, skill("PDF-Tools", f"{TABLES}\n{IMAGES}")),
                    "PDF-Tools/scripts/pdf-tables/extract.py": (None, SCRIPT),
                    "pdf-extraction/SKILL.md": None,
                    "pdf-extraction/scripts/pdf-tables/extract.py": None,
                },
            },
            "but the live skill tools/pdf-tools already has that name",
        ),
        (
            {"home": "pdf-user/pdf-extraction", "name": "pdf-extraction"},
            "writes pdf-user/pdf-extraction/SKILL.md inside the live skill pdf-user",
        ),
        (
            {"moved": {"pdf-tables": ".archive/pdf-tables", "pdf-user": ".archive/pdf-user"}},
            "folds pdf-user, which a pass may not fold: origin user",
        ),
        (
            {"skills_before": {"pdf-tables": "pdf-tables", "pdf-images": "ghost"}},
            "folds pdf-images, which a pass may not fold: it is no skill of the default branch",
        ),
        (
            {"files": {"pdf-extraction/scripts/pdf-tables/extract.py": None}},
            "does not re-home pdf-tables/scripts/extract.py under pdf-extraction",
        ),
        (
            {
                "files": {
                    "pdf-extraction/scripts/pdf-tables/extract.py": (None, (SCRIPT[0], FILE)),
                }
            },
            "does not re-home pdf-tables/scripts/extract.py",  # the exec bit is part of it
        ),
        (
            {"files": {"pdf-extraction/SKILL.md": (None, skill("pdf-extraction", TABLES))}},
            "loses content: pdf-extraction/SKILL.md keeps ",
        ),
        (
            {"files": {"pdf-extraction/SKILL.md": (None, (blob(b"no frontmatter"), FILE))}},
            "writes pdf-extraction/SKILL.md, which does not parse as a SKILL.md",
        ),
    ],
)
def test_what_the_pass_would_have_refused_is_refused(change: dict[str, Any], problem: str) -> None:
    found = umbrella_guard_problem(umbrella(**change), GUARDS)
    assert found is not None and problem in found, found
    assert found.startswith("commit abc123def456 ")


def _rewrite(path: str, old: str, new: str) -> UmbrellaCommit:
    """The umbrella, with `path` (outside it) edited in place from `old` to `new`."""
    entries = (blob(old), FILE), (blob(new), FILE)
    return umbrella(files={path: entries}, rewritten=(path,))


def test_a_file_rewritten_exactly_as_the_pass_would_passes() -> None:
    old = "Use `pdf-tables`, skill:pdf-images and [t](pdf-tables/SKILL.md#x).\n"
    new = "Use `pdf-extraction`, skill:pdf-extraction and [t](pdf-extraction/SKILL.md#x).\n"
    assert umbrella_guard_problem(_rewrite("AGENTS.md", old, new), GUARDS) is None
    front = "---\nname: pdf-user\ndescription: Uses pdf-tables.\n---\n\nSee `pdf-images`.\n"
    after = front.replace("pdf-tables", "pdf-extraction").replace("pdf-images", "pdf-extraction")
    assert umbrella_guard_problem(_rewrite("pdf-user/SKILL.md", front, after), GUARDS) is None


@pytest.mark.parametrize(
    ("path", "old", "new", "problem"),
    [
        # Where the pass rewrites nothing: a code block, a URL, a name it does not fold.
        (
            "AGENTS.md",
            "Use `pdf-tables`.\n```\npdf-tables --all\n```\n",
            "Use `pdf-extraction`.\n```\npdf-extraction --all\n```\n",
            "not only to rewrite references",
        ),
        (
            "AGENTS.md",
            "Use `pdf-tables` (https://example.com/?q=pdf-tables).\n",
            "Use `pdf-extraction` (https://example.com/?q=pdf-extraction).\n",
            "not only to rewrite references",
        ),
        (
            "AGENTS.md",
            "Use `pdf-tables` or `pdf-user`.\n",
            "Use `pdf-extraction` or `pdf-extraction`.\n",
            "not only to rewrite references",
        ),
        ("AGENTS.md", "Use `pdf-user`.\n", "Use `pdf-user`.\n", "not only to rewrite"),
        # Files a fold never rewrites: no reference file, a script of a live skill, a file
        # set aside, an archived skill's Markdown.
        ("docs/notes.md", "`pdf-tables`", "`pdf-extraction`", "neither a live skill's"),
        ("pdf-user/run.sh", "`pdf-tables`", "`pdf-extraction`", "neither a live skill's"),
        (".curator/AGENTS.md", "`pdf-tables`", "`pdf-extraction`", "neither a live skill's"),
        (".archive/x/AGENTS.md", "`pdf-tables`", "`pdf-extraction`", "neither a live skill's"),
    ],
)
def test_an_edit_outside_the_umbrella_that_is_not_the_rewrite_is_refused(
    path: str, old: str, new: str, problem: str
) -> None:
    found = umbrella_guard_problem(_rewrite(path, old, new), GUARDS)
    assert found is not None and problem in found, found
    assert f"edits {path} outside umbrella pdf-extraction" in found

"""The bytes of served skills, read from git objects and remembered by blob id.

A blob id names its content, so what is learnt of a blob (its size, digest, frontmatter) never
goes stale: after HEAD moves only the files that changed are read again.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gitcurator.mcp.catalogue import Catalogue, ServedSkill
from gitcurator.mcp.manifest import FileDigest
from gitcurator.search.ranking import WordIndex
from gitcurator.skills.document import SkillParseError, parse_skill_md
from gitcurator.store import ObjectID, Store
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.wording import BODY_CHARS

# A file larger than this is refused, not cut short: a model's context holds a few hundred KB,
# and a big asset (a dataset, a binary) is for the repository, not for a tool reply.
MAX_SERVED_BYTES = 1024 * 1024


class FileTooLarge(Exception):
    """A file over MAX_SERVED_BYTES; the message gives its size and the cap."""


class SkillFiles:
    """What has been read of the skills' blobs, by blob id."""

    def __init__(self) -> None:
        self._digests: dict[ObjectID, FileDigest] = {}
        self._docs: dict[ObjectID, tuple[dict[str, Any], str] | None] = {}
        self._index: tuple[str | None, WordIndex] | None = None

    def data(self, store: Store, skill: ServedSkill, path: str, capped: bool = False) -> bytes:
        """The bytes of `path` in the skill (a symlink's target, for a link)."""
        sha = skill.files[path][0]
        known = self._digests.get(sha)
        if capped and known is not None and known.size > MAX_SERVED_BYTES:
            raise FileTooLarge(_too_large(path, known.size))
        data = store.read_blob(sha)
        if sha not in self._digests:
            self._digests[sha] = FileDigest(
                "", "sha256:" + hashlib.sha256(data).hexdigest(), len(data)
            )
        if capped and len(data) > MAX_SERVED_BYTES:
            raise FileTooLarge(_too_large(path, len(data)))
        return data

    def digest(self, store: Store, skill: ServedSkill, path: str) -> FileDigest:
        """`path`'s digest and size (its bytes are read once per blob)."""
        sha = skill.files[path][0]
        if sha not in self._digests:
            self.data(store, skill, path)
        known = self._digests[sha]
        return FileDigest(path, known.digest, known.size)

    def size(self, store: Store, skill: ServedSkill, path: str) -> int:
        """`path`'s size in bytes."""
        return self.digest(store, skill, path).size

    def frontmatter(self, store: Store, skill: ServedSkill) -> dict[str, Any] | None:
        """The skill's SKILL.md frontmatter, or None when it does not parse."""
        doc = self._doc(store, skill)
        return doc[0] if doc else None

    def word_index(self, cat: Catalogue, store: Store) -> WordIndex:
        """The wording index of the catalogue's live skills (built once per HEAD)."""
        if self._index is None or self._index[0] != cat.head:
            skills = []
            for name, skill in sorted(cat.live.items()):
                fm, body = self._doc(store, skill) or ({}, "")
                skills.append(Candidate(name, skill.folder, str(fm.get("description") or ""), body))
            self._index = (cat.head, WordIndex(skills))
        return self._index[1]

    def _doc(self, store: Store, skill: ServedSkill) -> tuple[dict[str, Any], str] | None:
        sha = skill.files[skill.skill_md][0]
        if sha not in self._docs:
            try:
                doc = parse_skill_md(store.read_blob(sha))
                self._docs[sha] = (doc.frontmatter, doc.body[:BODY_CHARS])
            except SkillParseError:
                self._docs[sha] = None
        return self._docs[sha]


def _too_large(path: str, size: int) -> str:
    return (
        f"{path} is {size / 2**20:.1f} MiB; files over {MAX_SERVED_BYTES // 2**20} MiB are not "
        "served (read it from the repository instead)"
    )

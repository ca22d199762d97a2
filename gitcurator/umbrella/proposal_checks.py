"""One proposed umbrella checked against the rules and turned into tree changes (pure).

A plan is data; gitcurator decides. An umbrella is applied only if every skill it names is a
sibling of its cluster and free to fold, its name is class-level and clashes with no other
skill's (in any case or Unicode form), its SKILL.md validates, each folded skill's content is
kept well enough, and every path stays inside its folder without clashing with another.
Nothing is deleted: folded skills move whole to `.archive/`, their support files are copied
under the umbrella with their modes, and the only files the model's words reach are the
umbrella's SKILL.md and demoted Markdown, never a script or an exec bit. Blobs are read
through `Context.load`, so the module does no I/O of its own.
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from gitcurator.skills.archive_paths import archive_targets
from gitcurator.skills.document import render_skill_md
from gitcurator.skills.frontmatter import MAX_DESCRIPTION_LENGTH
from gitcurator.umbrella.clusters import Cluster
from gitcurator.umbrella.files import (
    Member,
    Refused,
    demoted,
    rehome,
    retention_of,
    validate_folder,
)
from gitcurator.umbrella.names import umbrella_name_problem
from gitcurator.umbrella.paths import clash, moved_paths, relink

__all__ = ["Context", "Member", "Refused", "Umbrella", "check_umbrella", "name_key"]

BlobId = TypeVar("BlobId", bound=bytes)


def name_key(name: str) -> str:
    """What two names must not share: agents and file systems treat `PDF-Tools`, `pdf-tools`
    and a full-width `ｐｄｆ-tools` as one."""
    return unicodedata.normalize("NFKC", name).casefold()


@dataclass(frozen=True, slots=True)
class Context(Generic[BlobId]):
    """What a check needs to know beyond the cluster: the library as the umbrellas accepted
    so far leave it (see after)."""

    live: Mapping[str, str]  # live skill name -> folder, the whole library
    ineligible: Mapping[str, str]  # name -> why the pass must leave it alone
    paths: frozenset[str]  # every file path of the tree the umbrella applies to
    load: Callable[[BlobId], bytes]
    min_retention: float
    skills_dir: str = ""
    claimed: frozenset[str] = frozenset()  # skills folded and umbrellas made by this pass

    def taken_name(self, name: str) -> str | None:
        """The existing skill name `name` clashes with, if any."""
        key = name_key(name)
        return next((n for n in (*self.live, *self.ineligible) if name_key(n) == key), None)

    def after(self, umbrella: Umbrella[BlobId]) -> Context[BlobId]:
        """The context later umbrellas of the pass are checked against: this one's tree and
        names taken."""
        gone: set[str] = set()
        moved: set[str] = set()
        for folder, files in umbrella.archived_files.items():
            gone.update(f"{folder}/{rel}" for rel in files)
            moved.update(f"{umbrella.archived[folder]}/{rel}" for rel in files)
        added = moved | set(umbrella.writes) | set(umbrella.copies)
        return replace(
            self,
            paths=frozenset((self.paths - gone) | added),
            claimed=self.claimed | {*umbrella.folded, umbrella.name},
            live={**self.live, umbrella.name: umbrella.folder},
        )


@dataclass(frozen=True, slots=True)
class Umbrella(Generic[BlobId]):
    """An umbrella that passed every check, as changes to the tree."""

    name: str
    folder: str
    existing: bool
    absorbed: tuple[str, ...]
    demoted: tuple[str, ...]
    reason: str
    writes: dict[str, bytes]  # repo path -> new content (mode 100644)
    copies: dict[str, tuple[BlobId, int]]  # repo path -> a member's blob and mode
    archived: dict[str, str]  # folded member folder -> its folder under .archive/
    archived_files: dict[str, tuple[str, ...]]  # folded member folder -> its files
    retention: dict[str, float]

    @property
    def folded(self) -> tuple[str, ...]:
        return self.absorbed + self.demoted


def check_umbrella(
    proposal: Mapping[str, Any],
    cluster: Cluster,
    members: Mapping[str, Member[BlobId]],
    ctx: Context[BlobId],
) -> Umbrella[BlobId]:
    """The umbrella as tree changes, or Refused naming the first rule it breaks."""
    name = str(proposal["name"]).strip()
    problem = umbrella_name_problem(name)
    if problem:
        raise Refused(f"umbrella name {problem}")
    absorb = _unique(s for s in proposal["absorb"] if s != name)
    demote = [(str(d["skill"]), str(d["to"])) for d in proposal["demote"]]
    named = absorb + [s for s, _ in demote]
    _check_named(name, named, demote, cluster, ctx)
    description = " ".join(str(proposal["description"]).split())
    if len(description) > MAX_DESCRIPTION_LENGTH:
        raise Refused(
            f"umbrella {name}: the description has {len(description)} characters, over the "
            f"{MAX_DESCRIPTION_LENGTH} the spec allows"
        )
    folder, host = _home(name, named, cluster, members, ctx)
    skill_md = f"{folder}/{host.skill_file if host else 'SKILL.md'}"
    kept_files = {f"{folder}/{p}" for p in (host.files if host else {})}
    copies, rewritten = rehome(folder, named, members, kept_files | {skill_md}, ctx.load)
    taken = kept_files | {skill_md} | set(copies) | set(rewritten)
    demoted_texts = demoted(folder, demote, members, taken)
    moved = moved_paths(_all_moves(named, members))
    for own in host.files if host else ():
        moved.pop(own, None)  # the host's own files stay where they are: so do its links
    body = relink(str(proposal["body"]), moved)
    front = dict(host.frontmatter) if host else {}
    front.update(name=name, description=description)
    writes = {skill_md: render_skill_md(front, body.strip() + "\n").encode()}
    writes.update(rewritten)
    writes.update(demoted_texts)
    retiring = [members[s].folder for s in named]
    archived = _archive(retiring, ctx)
    files = _folder_files(folder, host, writes, copies)
    found = clash(files)
    if found:
        raise Refused(f"umbrella {name}: {found}")
    gone = tuple(f"{r}/" for r in retiring)
    paths = frozenset({p for p in ctx.paths if not p.startswith(gone)} | set(files))
    validate_folder(folder, skill_md, files, paths, ctx.load)
    kept_in = [description, body] + [d.decode("utf-8", "replace") for d in demoted_texts.values()]
    kept = retention_of(absorb, demote, host, members, kept_in)
    low = {s: r for s, r in kept.items() if r < ctx.min_retention}
    if low:
        worst = min(low, key=lambda s: (low[s], s))
        raise Refused(
            f"umbrella {name} loses content: it keeps {low[worst]:.0%} of {worst} "
            f"(min_retention {ctx.min_retention:g})"
        )
    return Umbrella(
        name=name,
        folder=folder,
        existing=host is not None,
        absorbed=tuple(absorb),
        demoted=tuple(s for s, _ in demote),
        reason=" ".join(str(proposal["reason"]).split()) or "no reason given",
        writes=writes,
        copies=copies,
        archived=archived,
        archived_files={members[s].folder: tuple(members[s].files) for s in named},
        retention=kept,
    )


def _unique(items: Any) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(str(item), None)
    return list(seen)


def _check_named(
    name: str,
    named: Sequence[str],
    demote: Sequence[tuple[str, str]],
    cluster: Cluster,
    ctx: Context[Any],
) -> None:
    if not named:
        raise Refused(f"umbrella {name} folds no skill")
    if name in [s for s, _ in demote]:
        raise Refused(f"umbrella {name} cannot demote itself")
    twice = sorted({s for s in named if named.count(s) > 1})
    if twice:
        raise Refused(f"umbrella {name} names a skill twice: {', '.join(twice)}")
    for skill in named:
        if skill in ctx.claimed:
            raise Refused(f"{skill} is already folded by another umbrella of this pass")
        if skill in cluster.members:
            continue
        if skill in ctx.ineligible:
            raise Refused(f"{skill} may not be folded: {ctx.ineligible[skill]}")
        if skill in ctx.live:
            raise Refused(f"{skill} is not in cluster {cluster.key}")
        raise Refused(f"there is no skill {skill!r} in the library")


def _home(
    name: str,
    named: Sequence[str],
    cluster: Cluster,
    members: Mapping[str, Member[BlobId]],
    ctx: Context[BlobId],
) -> tuple[str, Member[BlobId] | None]:
    """The umbrella's folder, and the member it is if it merges into an existing sibling."""
    if name in cluster.members:
        if name in ctx.claimed:
            raise Refused(f"{name} is already folded by another umbrella of this pass")
        return members[name].folder, members[name]
    other = ctx.taken_name(name)
    if other is not None:
        why = ctx.ineligible.get(other, f"not in cluster {cluster.key}")
        same = "" if other == name else f" ({other} differs only in case or form)"
        raise Refused(
            f"umbrella {name} is an existing skill that may not be rewritten{same}: {why}"
        )
    parent = posixpath.dirname(members[named[0]].folder)
    folder = f"{parent}/{name}" if parent else name
    key = folder.casefold()
    for path in ctx.paths:
        folded = path.casefold()
        if folded == key or folded.startswith(key + "/"):
            raise Refused(f"umbrella folder {folder} is taken by {path}")
    return folder, None


def _all_moves(named: Sequence[str], members: Mapping[str, Member[Any]]) -> list[tuple[str, str]]:
    return [pair for s in named for pair in members[s].moves().items()]


def _archive(retiring: Sequence[str], ctx: Context[Any]) -> dict[str, str]:
    """Where the folded folders go; a name already in .archive/ is refused, not suffixed:
    `absorbed_into` and `restore` go by name, and would find the older copy."""
    targets = archive_targets([(f, f) for f in retiring], ctx.paths, ctx.skills_dir)
    prefix = f"{ctx.skills_dir}/.archive/" if ctx.skills_dir else ".archive/"
    skills_prefix = f"{ctx.skills_dir}/" if ctx.skills_dir else ""
    for folder, target in targets.items():
        if target != prefix + folder[len(skills_prefix) :]:
            raise Refused(
                f"{posixpath.basename(folder)} is already archived at "
                f"{prefix + folder[len(skills_prefix) :]}; restore or purge that copy first"
            )
    return targets


def _folder_files(
    folder: str,
    host: Member[BlobId] | None,
    writes: Mapping[str, bytes],
    copies: Mapping[str, tuple[BlobId, int]],
) -> dict[str, tuple[bytes | None, Any, int]]:
    """Every file of the umbrella folder as it would be: path -> (new content, blob, mode)."""
    files: dict[str, tuple[bytes | None, Any, int]] = {}
    if host is not None:
        for rel, (blob, mode) in host.files.items():
            files[f"{folder}/{rel}"] = (None, blob, mode)
    for path, (blob, mode) in copies.items():
        files[path] = (None, blob, mode)
    for path, data in writes.items():
        mode = files[path][2] if path in files else 0o100644
        files[path] = (data, None, mode if not mode & 0o111 else 0o100644)
    return files

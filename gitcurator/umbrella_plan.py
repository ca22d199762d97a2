"""One proposed umbrella checked against the rules and turned into file changes (pure).

A plan is data; gitcurator decides. An umbrella is applied only if every skill it names is a
sibling of its cluster and free to fold, its name is class-level, its SKILL.md validates,
each folded skill's content is kept well enough, and every path stays inside its folder.
Nothing is deleted: folded skills move to `.archive/` (the caller moves them), their support
files are copied whole under the umbrella with their modes, and the only files the model's
words reach are the umbrella's SKILL.md and demoted Markdown, never a script or an exec bit.
Blobs are read through `Context.load`, so the module does no I/O of its own.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from gitcurator.cluster import Candidate, Cluster
from gitcurator.consolidation_prompt import rehomed_path
from gitcurator.files import FileEntry, SkillFiles
from gitcurator.retention import kept_units, retained
from gitcurator.skill import SKILL_FILE, render_skill_md
from gitcurator.umbrella_names import umbrella_name_problem
from gitcurator.validate import validate_skill

BlobId = TypeVar("BlobId", bound=bytes)

FILE_MODE = 0o100644
_LINK_MODE = 0o120000
_GITLINK_MODE = 0o160000
_WRITABLE_KINDS = ("references/", "templates/")


@dataclass(frozen=True, slots=True)
class Member(Generic[BlobId]):
    """A cluster member as stored: its text, frontmatter and files (path inside the folder
    -> (blob, mode))."""

    candidate: Candidate
    frontmatter: Mapping[str, Any]
    files: Mapping[str, tuple[BlobId, int]]

    @property
    def name(self) -> str:
        return self.candidate.name

    @property
    def folder(self) -> str:
        return self.candidate.path

    @property
    def text(self) -> str:
        return f"{self.candidate.description}\n\n{self.candidate.body}"


@dataclass(slots=True)
class Context(Generic[BlobId]):
    """What a check needs to know beyond the cluster. `claimed` grows as umbrellas apply."""

    live: Mapping[str, str]  # live skill name -> folder, the whole library
    ineligible: Mapping[str, str]  # name -> why the pass must leave it alone
    paths: frozenset[str]  # every file path of the tree the umbrella applies to
    load: Callable[[BlobId], bytes]
    min_retention: float
    claimed: set[str] = field(default_factory=set)


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
    retired: tuple[str, ...]  # member folders that move to .archive/
    retention: dict[str, float]

    @property
    def folded(self) -> tuple[str, ...]:
        return self.absorbed + self.demoted


class Refused(Exception):
    """The umbrella breaks a rule; the message says which, in words."""


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
    if not named:
        raise Refused(f"umbrella {name} folds no skill")
    if name in [s for s, _ in demote]:
        raise Refused(f"umbrella {name} cannot demote itself")
    if len(set(named)) != len(named):
        raise Refused(f"umbrella {name} names a skill twice: {', '.join(_twice(named))}")
    for skill in named:
        _check_foldable(skill, cluster, ctx)
    folder, host = _home(name, named, cluster, members, ctx)
    copies = _rehome(folder, named, members, ctx)
    taken = set(copies) | {f"{folder}/{p}" for p in (host.files if host else {})}
    demoted_texts = _demoted(folder, demote, members, taken)
    body = _relink(str(proposal["body"]), _moved_paths(named, members), absorb_only=True)
    description = " ".join(str(proposal["description"]).split())
    front = dict(host.frontmatter) if host else {}
    front.update(name=name, description=description)
    skill_md = render_skill_md(front, body.strip() + "\n").encode()
    writes = {f"{folder}/{SKILL_FILE}": skill_md, **demoted_texts}
    retired = tuple(members[s].folder for s in named)
    _validate(folder, writes, copies, host, retired, ctx)
    kept = retention_of(absorb, demote, host, members, description, body, demoted_texts)
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
        retired=retired,
        retention=kept,
    )


def _unique(items: Any) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(str(item), None)
    return list(seen)


def _twice(named: Sequence[str]) -> list[str]:
    return sorted({s for s in named if named.count(s) > 1})


def _check_foldable(skill: str, cluster: Cluster, ctx: Context[Any]) -> None:
    if skill in ctx.claimed:
        raise Refused(f"{skill} is already folded by another umbrella of this pass")
    if skill in cluster.members:
        return
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
    if name in ctx.live or name in ctx.ineligible:
        why = ctx.ineligible.get(name, f"not in cluster {cluster.key}")
        raise Refused(f"umbrella {name} is an existing skill that may not be rewritten: {why}")
    parent = posixpath.dirname(members[named[0]].folder)
    folder = f"{parent}/{name}" if parent else name
    if any(p.startswith(folder + "/") for p in ctx.paths):
        raise Refused(f"umbrella folder {folder} already exists")
    return folder, None


def _rehome(
    folder: str, named: Sequence[str], members: Mapping[str, Member[BlobId]], ctx: Context[BlobId]
) -> dict[str, tuple[BlobId, int]]:
    copies: dict[str, tuple[BlobId, int]] = {}
    for skill in named:
        member = members[skill]
        for rel, (blob, mode) in sorted(member.files.items()):
            if rel == SKILL_FILE or rel.lower() == "skill.md":
                continue
            if mode in (_LINK_MODE, _GITLINK_MODE):
                kind = "a symlink" if mode == _LINK_MODE else "a submodule"
                raise Refused(f"{member.folder}/{rel} is {kind}; re-home it by hand")
            copies[f"{folder}/{rehomed_path(skill, rel)}"] = (blob, mode)
    return copies


def _demoted(
    folder: str,
    demote: Sequence[tuple[str, str]],
    members: Mapping[str, Member[Any]],
    taken: set[str],
) -> dict[str, bytes]:
    """Demoted skills as Markdown files under the umbrella, links re-pointed."""
    writes: dict[str, bytes] = {}
    for skill, target in demote:
        to = _safe_target(skill, target)
        path = f"{folder}/{to}"
        if path in taken or path in writes or to == SKILL_FILE:
            raise Refused(f"demoting {skill} to {to} would overwrite a file of the umbrella")
        member = members[skill]
        moved = {old: _relative(new, posixpath.dirname(to)) for old, new in _moves(member)}
        body = _relink(member.candidate.body, moved, absorb_only=False)
        text = f"# {skill}\n\n> {member.candidate.description.strip()}\n\n{body.strip()}\n"
        writes[path] = text.encode()
    return writes


def _safe_target(skill: str, target: str) -> str:
    """The demote path if it stays inside the umbrella and out of scripts/."""
    bad = (
        not target
        or target.startswith("/")
        or "\\" in target
        or "\0" in target
        or posixpath.normpath(target) != target
        or ".." in target.split("/")
    )
    if bad:
        raise Refused(f"demote path {target!r} for {skill} leaves the umbrella folder")
    if not target.startswith(_WRITABLE_KINDS):
        raise Refused(
            f"demote path {target!r} for {skill}: the model may write only under references/ "
            "or templates/, never scripts/ or elsewhere"
        )
    return target


def _moves(member: Member[Any]) -> list[tuple[str, str]]:
    return [
        (rel, rehomed_path(member.name, rel)) for rel in member.files if rel.lower() != "skill.md"
    ]


def _moved_paths(named: Sequence[str], members: Mapping[str, Member[Any]]) -> dict[str, str]:
    """Old support-file path -> its path in the umbrella, where only one member had it."""
    seen: dict[str, list[str]] = {}
    for skill in named:
        for old, new in _moves(members[skill]):
            seen.setdefault(old, []).append(new)
    return {old: news[0] for old, news in seen.items() if len(news) == 1}


def _relative(path: str, start: str) -> str:
    return posixpath.relpath(path, start or ".")


_LINK = re.compile(r"(\]\(\s*<?)([^)\s>#]+)|(^\s{0,3}\[[^\]\n]+\]:\s*<?)([^\s>#]+)", re.M)


def _relink(text: str, moved: Mapping[str, str], *, absorb_only: bool) -> str:
    """`text` with relative link targets that point at moved files re-pointed.

    In the umbrella body (`absorb_only`) the model was told the new paths; a target it left
    at an old path that is no longer anywhere else is mended all the same.
    """
    if not moved:
        return text

    def repl(m: re.Match[str]) -> str:
        lead, target = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        key = posixpath.normpath(target.removeprefix("./"))
        new = moved.get(key)
        if new is None or (absorb_only and key in moved.values()):
            return m.group(0)
        return lead + new

    return _LINK.sub(repl, text)


def _validate(
    folder: str,
    writes: Mapping[str, bytes],
    copies: Mapping[str, tuple[BlobId, int]],
    host: Member[BlobId] | None,
    retired: Sequence[str],
    ctx: Context[BlobId],
) -> None:
    """The umbrella folder as it would be, checked by the same rules as `validate`."""
    entries = [FileEntry(p, len(d), data=d) for p, d in writes.items()]
    for path, (blob, mode) in copies.items():
        entries.append(_entry(path, ctx.load(blob), mode))
    if host is not None:
        for rel, (blob, mode) in host.files.items():
            path = f"{folder}/{rel}"
            if path not in writes and rel.lower() != "skill.md":
                entries.append(_entry(path, ctx.load(blob), mode))
    gone = tuple(f"{r}/" for r in retired if r != folder)
    paths = {p for p in ctx.paths if not p.startswith(gone)} | {e.path for e in entries}
    skill = SkillFiles(folder, f"{folder}/{SKILL_FILE}", tuple(sorted(entries, key=_path)))
    errors = [
        f.message for f in validate_skill(skill, repo_paths=frozenset(paths)) if f.level == "error"
    ]
    if errors:
        shown = "; ".join(errors[:3]) + (
            f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        )
        raise Refused(f"the umbrella's SKILL.md would not validate: {shown}")


def _path(entry: FileEntry) -> str:
    return entry.path


def _entry(path: str, data: bytes, mode: int) -> FileEntry:
    if mode == _LINK_MODE:
        return FileEntry(path, len(data), link_target=data.decode("utf-8", "surrogateescape"))
    return FileEntry(path, len(data), executable=bool(mode & 0o111), data=data)


def retention_of(
    absorb: Sequence[str],
    demote: Sequence[tuple[str, str]],
    host: Member[Any] | None,
    members: Mapping[str, Member[Any]],
    description: str,
    body: str,
    demoted_texts: Mapping[str, bytes],
) -> dict[str, float]:
    """Share of each folded skill's content (and the host's own) kept in the umbrella."""
    kept_in = [description, body] + [d.decode("utf-8", "replace") for d in demoted_texts.values()]
    have = kept_units(kept_in)
    found = {s: retained(members[s].text, have) for s in absorb}
    found.update({s: retained(members[s].text, have) for s, _ in demote})
    if host is not None:
        found[host.name] = retained(host.text, have)
    return dict(sorted(found.items()))

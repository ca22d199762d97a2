"""The plan's folds given the rewrites of the references to what they fold (planning only).

Each fold, in order, rewrites the references to its folded names in the files that are live
when its commit is made: the other live skills' Markdown and the reference files that the
load step's graph says refer to them, and the text files earlier umbrellas of the pass wrote.
Skills the archive commit moved, folders folded before, the umbrella's own folder and
executable files are left alone (the last listed as left, for the report); a file an earlier
fold rewrote is rewritten from that text.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from gitcurator.curation.pass_inputs import PassInputs
from gitcurator.curation.umbrella_plan import Fold, UmbrellaPlan
from gitcurator.references.rewrite import Renames, Rewrite, rewrite_references
from gitcurator.umbrella.files import FILE_MODE


def with_reference_rewrites(
    umbrellas: UmbrellaPlan, inputs: PassInputs, archived: Sequence[str]
) -> UmbrellaPlan:
    """`umbrellas` with each fold's reference rewrites; `archived` are the folders the archive
    commit moves before the folds."""
    current: dict[str, bytes] = {}  # files written or rewritten by the folds so far
    gone: set[str] = set(archived)
    folds: list[Fold] = []
    for fold in umbrellas.folds:
        u = fold.umbrella
        folded = list(u.archived)
        renames = Renames(
            names={name: u.name for name in u.folded},
            folders={folder: posixpath.basename(folder) for folder in folded},
            home=u.folder,
        )
        away = {*gone, *folded, u.folder}
        paths = _referring(inputs, u.folded, away) | {p for p in current if not _under(p, away)}
        rewritten: dict[str, bytes] = {}
        done: list[Rewrite] = []
        left: list[str] = []
        needles = {*u.folded, *renames.folders.values()}
        for path in sorted(paths):
            text = _text(path, inputs, current)
            if text is None:
                left += _where(inputs, u.folded, path)
                continue
            if not _may_refer(text, needles):
                continue
            new, rewrites = rewrite_references(text, path, renames)
            if rewrites:
                rewritten[path] = new.encode()
                done += rewrites
        current.update(u.writes)
        current.update(rewritten)
        gone.update(folded)
        folds.append(replace(fold, rewritten=rewritten, references=tuple(done), left=tuple(left)))
    return replace(umbrellas, folds=tuple(folds))


def _referring(inputs: PassInputs, names: Collection[str], away: Collection[str]) -> set[str]:
    """Files of the tip that refer to one of `names`, outside the folders in `away`."""
    return {
        ref.path
        for name in names
        for ref in inputs.references.to(name)
        if ref.live and not _under(ref.path, away)
    }


def _where(inputs: PassInputs, names: Collection[str], path: str) -> list[str]:
    """`path:line` of each reference to one of `names` written in `path` (a file the fold
    cannot rewrite: executable, a symlink, no UTF-8 text): what the report says is left."""
    return sorted(
        {ref.where for name in names for ref in inputs.references.to(name) if ref.path == path}
    )


def _text(path: str, inputs: PassInputs, current: Mapping[str, bytes]) -> str | None:
    """A file's text as the fold's commit finds it (None: executable, a link, or no text)."""
    if path in current:
        data = current[path]
    else:
        entry = inputs.entries.get(path)
        if entry is None or entry[1] != FILE_MODE:
            return None  # a rewrite writes mode 100644: an executable keeps its text
        data = inputs.read(entry[0])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _under(path: str, folders: Collection[str]) -> bool:
    """Whether `path` lies inside one of `folders` (a set: the archive commit's folders are
    a thousand at 10,000 skills, asked about for every referring file of every fold)."""
    at = path.rfind("/")
    while at > 0:
        if path[:at] in folders:
            return True
        at = path.rfind("/", 0, at)
    return False


def _may_refer(text: str, needles: Collection[str]) -> bool:
    """Whether `text` can hold a reference the fold rewrites: a folded name is written in it,
    or a folded folder's name is (a link into a folder names it, once its destination loses
    its quotes and its backslashes become slashes, as links_into reads it). A text with a
    percent sign is always scanned: an escaped destination hides the name. Every file
    written so far is asked again at each fold; most name none of its skills."""
    if "%" in text:
        return True
    plain = text.replace('"', "").replace("'", "").replace("\\", "/")
    return any(needle in plain for needle in needles)

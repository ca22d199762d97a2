"""`gitcurator validate`: check skills in the work tree, the index, or any folder."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator.commands.library_notes import hidden_notes
from gitcurator.commands.validate_base import BaseFacts, pairing_token, save_base
from gitcurator.commands.validate_quick import cache_key, quick_look, save_quick
from gitcurator.config import CONFIG_FILE, Config, parse_config
from gitcurator.errors import EXIT_FAILURE, EXIT_OK, CuratorError, NotARepository, UsageError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Result
from gitcurator.progress import NO_PROGRESS, Progress
from gitcurator.render import findings_text, plural
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.check_tree import CheckResult, check_tree
from gitcurator.skills.document import SKILL_FILE
from gitcurator.skills.files import FileTree
from gitcurator.store.index import staged_snapshot
from gitcurator.store.notes import notes_commit
from gitcurator.store.worktree import folder_tree
from gitcurator.store.worktree_fingerprint import Seen, print_of
from gitcurator.store.worktree_stat import StatTree, stat_worktree

if TYPE_CHECKING:
    from gitcurator.commands.validate_cache import ValidateCache
    from gitcurator.skills.check_memo import Summary

MISSING_SKILL_MD = f"Missing required file: {SKILL_FILE}"


def validate(
    start: Path,
    paths: Sequence[str],
    *,
    strict: bool = False,
    staged: bool = False,
    as_json: bool = False,
    quiet: bool = False,
    progress: Progress = NO_PROGRESS,
) -> Result:
    """Validate the given paths (or every skill of the repository); exit 0 clean, 1 errors.

    Relative paths are taken from `start` (the -C folder, else the current one), and each
    path's repository is found from the path itself; a folder in no repository is checked on
    its own, as the reference validator does. The findings and the summary are the text, on
    stdout when clean; with errors they go to stderr, as a linter's do, so they are notes
    there (and `--json` shows only the document). `progress` hears how many skills are read.
    """
    if not paths:
        with open_repo(start) as repo:
            result = _check_repo(repo, None, strict, staged, progress=progress)
            skills_dir = repo.config.skills_dir
    else:
        targets = [(raw, Path(os.path.join(start, raw))) for raw in paths]
        if not staged:
            missing = [raw for raw, full in targets if not full.exists() and not full.is_symlink()]
            if missing:
                raise UsageError(f"no such file or folder: {', '.join(missing)}")
            _refuse_unstorable(targets)
        result, skills_dir = _check_paths(targets, strict, staged, progress)
    return _report(result, skills_dir, strict=strict, staged=staged, as_json=as_json, quiet=quiet)


def _refuse_unstorable(targets: Sequence[tuple[str, Path]]) -> None:
    """A path given (or a given folder's SKILL.md) that is a FIFO, socket or device: git
    stores none (`git add` refuses it), and the walk leaves such files out, so without this
    `validate` said "0 skills checked" and exit 0 for a skill whose SKILL.md is a FIFO."""
    for raw, full in targets:
        inside = full.is_dir() and not full.is_symlink()
        path, shown = (
            (full / SKILL_FILE, f"{raw.rstrip('/')}/{SKILL_FILE}") if inside else (full, raw)
        )
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue  # missing (an empty folder has its own finding) or unreadable
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            raise CuratorError(
                f"{shown} is not a file git can store (a FIFO, socket or device: `git add` "
                "refuses it); put the file itself there, then run this again"
            )


def _check_paths(
    targets: Sequence[tuple[str, Path]], strict: bool, staged: bool, progress: Progress
) -> tuple[CheckResult, str]:
    """Each path checked in its own repository (or on its own), the results joined."""
    by_root: dict[Path | None, list[tuple[str, Path]]] = {}
    for raw, full in targets:
        by_root.setdefault(_repository_root(full), []).append((raw, full))
    results: list[CheckResult] = []
    skills_dir = ""
    for root, group in by_root.items():
        if root is None:
            if staged:
                where = ", ".join(raw for raw, _ in group)
                raise NotARepository(f"{where}: not in a git repository, so nothing is staged")
            results.extend(_check_folder(raw, full, strict) for raw, full in group)
            continue
        with open_repo(root) as repo:
            only = {repo.relpath(full): raw for raw, full in group}
            results.append(_check_repo(repo, only, strict, staged, group, progress))
            skills_dir = repo.config.skills_dir
    return _joined(results), skills_dir


def _repository_root(full: Path) -> Path | None:
    folder = full if full.is_dir() and not full.is_symlink() else full.parent
    try:
        with open_repo(folder) as repo:
            return repo.root
    except NotARepository:
        return None


def _check_repo(
    repo: SkillsRepo,
    only: dict[str, str] | None,
    strict: bool,
    staged: bool,
    given: Sequence[tuple[str, Path]] = (),
    progress: Progress = NO_PROGRESS,
) -> CheckResult:
    config = repo.config
    selected = None if only is None else list(only)
    folder, key = repo.store.state_dir(), cache_key(repr(config))
    # Before any stat: records made from what is seen below are stamped with it.
    started_ns, seen = time.time_ns(), Seen()
    if only is None and not staged:
        look = quick_look(repo.store, folder, key, strict, seen)
        if look is not None and look.result is not None:
            return look.result
        if look is not None:  # only the work tree moved: checked where it moved, if it can be
            from gitcurator.commands.validate_delta import delta_result

            delta = delta_result(repo, look, folder, key, strict, started_ns)
            if delta is not None:
                return delta
    # The full path's caches and checks: not imported when the quick answer holds.
    from gitcurator.commands.validate_cache import ValidateCache, read_cache

    # --staged uses only the per-skill results (read when first asked for), not the work
    # tree's records: their 5 MB at 10,000 skills are not parsed for it.
    cache = ValidateCache(folder, key) if staged else read_cache(folder, key, started_ns)
    if staged:
        result = _check_staged(repo, config, selected, strict, cache)
    else:
        result = _check_worktree(repo, config, selected, strict, cache, progress, seen)
    folders = {raw for raw, full in given if full.is_dir() and not full.is_symlink()}
    # A folder whose skills sit in a nested repository is reported as such, not as empty.
    nested_at = [f.path for f in result.findings if f.rule == "nested-repository"]
    given_names = only or {}
    unmatched = {
        given_names[rel]: rel
        for rel in result.ignored
        if rel in given_names
        and not any(n == rel or n.startswith(rel.rstrip("/") + "/") for n in nested_at)
    }
    # A folder git ignores here (a vendored or cached library) holds a skill the tree does not
    # show: it is checked on its own, as a folder in no repository is, not called empty.
    ignored_here = {
        raw: full for raw, full in given if raw in unmatched and (full / SKILL_FILE).is_file()
    }
    for raw in ignored_here:
        del unmatched[raw]
    checked = _with_missing(result, unmatched, folders)
    if not ignored_here:
        return checked
    alone = [_check_folder(raw, full, strict) for raw, full in ignored_here.items()]
    return _joined([checked, *alone])


def _check_staged(
    repo: SkillsRepo,
    config: Config,
    selected: list[str] | None,
    strict: bool,
    cache: ValidateCache,
) -> CheckResult:
    """What the hooks run: the staged change against HEAD, not the whole index."""
    from gitcurator.commands.reference_warnings import worktree_reference_findings
    from gitcurator.commands.validate_cache import ValidateCache, memo_of, save_cache
    from gitcurator.skills.check_change import check_change

    tree, changes, entries = staged_snapshot(repo.store)
    head = repo.store.head_tree()
    before_layout = None
    if CONFIG_FILE in changes:  # the commit's own config says which folders are skills
        config, old = _config_of(tree), _config_of(head)
        before_layout = (old.skills_dir, old.include)
        if config != repo.config:  # what was kept under the work tree's config does not hold
            cache = ValidateCache(cache.folder, cache_key(repr(config)))
    memo = memo_of(cache, {p: (sha.decode(), mode) for p, (sha, mode) in entries.items()})
    result = check_change(
        head,
        tree,
        changes,
        skills_dir=config.skills_dir,
        include=config.include,
        strict=strict,
        only=selected,
        before_layout=before_layout,
        memo=memo,
    )
    refs = worktree_reference_findings(repo, tree, selected, changes, config, memo)
    save_cache(cache, memo, None, whole=False)
    return replace(result, findings=(*result.findings, *refs))


def _check_worktree(
    repo: SkillsRepo,
    config: Config,
    selected: list[str] | None,
    strict: bool,
    cache: ValidateCache,
    progress: Progress,
    seen: Seen,
) -> CheckResult:
    """The work tree's skills, each read only if it changed since it was last checked; the
    whole library's result taken as it was when nothing it follows from changed. `seen` are
    stats taken since the run began (by the quick answer's check)."""
    from gitcurator.commands.validate_cache import library_digest, memo_of, save_cache

    scan = stat_worktree(repo.store, cache.worktree, cache.started_ns, (seen.ctimes, seen.lstats))
    whole = selected is None
    notes = notes_commit(repo.store)
    if whole and cache.final is not None and cache.final[0] == library_digest(scan, notes, strict):
        save_cache(cache, None, scan.records, whole=True)
        _keep_quick(repo, cache, scan, (strict, notes), cache.final[1])
        return cache.final[1]
    # Imported only when something is checked: an unchanged library does not pay for them.
    from gitcurator.commands.reference_warnings import KeptWarnings, worktree_reference_findings
    from gitcurator.skills.nested_repos import nested_findings

    tree, memo = scan.tree, memo_of(cache, scan.contents)
    own: list[Summary] = []
    result = check_tree(
        tree,
        skills_dir=config.skills_dir,
        include=config.include,
        strict=strict,
        only=selected,
        progress=progress,
        memo=memo,
        facts=own,
    )
    nested = nested_findings(scan.nested, selected)
    kept = KeptWarnings()
    refs = worktree_reference_findings(repo, tree, selected, memo=memo, kept=kept)
    result = replace(result, findings=(*result.findings, *nested, *refs))
    final = (library_digest(scan, notes, strict), result) if whole else None
    save_cache(cache, memo, scan.records, whole=whole, final=final)
    if whole:
        ignores = tuple(scan.records.ignores)
        facts = BaseFacts(
            tuple(own),
            tuple(
                s
                for s in memo.discover(tree.paths, config.skills_dir, config.include)[0]
                if s.archived
            ),
            tuple(nested),
            kept.by_source,
            kept.aliases,
            ignores,
            tuple(sorted(set(ignores).difference(tree.paths))),
        )
        _keep_quick(repo, cache, scan, (strict, notes), result, facts)
    return result


def _keep_quick(
    repo: SkillsRepo,
    cache: ValidateCache,
    scan: StatTree,
    computed_with: tuple[bool, bytes | None],
    result: CheckResult,
    facts: BaseFacts | None = None,
) -> None:
    """The whole library's result, computed with (strict, the notes commit), kept for the
    next run's quick answer, where the walk can vouch for every entry it saw; with the
    `facts` it was put together from, for the next run's delta."""
    strict, notes = computed_with
    fingerprint = print_of(scan, cache.started_ns)
    if fingerprint is None:
        return
    pair = None
    if facts is not None:
        pair = pairing_token()
        save_base(cache.folder, cache.key, fingerprint, facts, pair)
    depends_on = (scan.records.sources, scan.records.nested_key)
    save_quick(
        repo.store,
        cache.folder,
        cache.key,
        strict,
        fingerprint,
        depends_on,
        result,
        cache.started_ns,
        notes,
        pair,
    )


def _config_of(tree: FileTree) -> Config:
    """The config a stored tree holds (the defaults without one)."""
    if CONFIG_FILE not in tree.paths:
        return Config()
    data = tree.load(CONFIG_FILE).data or b""
    return parse_config(data.decode("utf-8", "replace"), f"{CONFIG_FILE} (staged or in HEAD)")


def _check_folder(raw: str, full: Path, strict: bool) -> CheckResult:
    """A path in no repository: its folder is the library, named as the folder is."""
    folder = full if full.is_dir() else full.parent
    folder = Path(os.path.realpath(folder))
    result = check_tree(folder_tree(folder), strict=strict, only=[folder.name])
    return _with_missing(result, {raw: folder.name} if result.ignored else {}, {raw})


def _with_missing(result: CheckResult, unmatched: dict[str, str], folders: set[str]) -> CheckResult:
    """An error for each folder given by name that holds no skill (skills-ref's rule); files
    outside skills stay ignored, as hooks hand over every changed file."""
    missing = [
        Finding("error", rel or raw, MISSING_SKILL_MD, "missing-skill-md")
        for raw, rel in unmatched.items()
        if raw in folders
    ]
    if not missing:
        return result
    findings = tuple(sorted((*result.findings, *missing), key=lambda f: (f.path, f.line or 0)))
    ignored = tuple(p for p in result.ignored if p not in {f.path for f in missing})
    return CheckResult(result.checked, findings, ignored, result.hidden)


def _joined(results: Sequence[CheckResult]) -> CheckResult:
    if len(results) == 1:
        return results[0]
    return CheckResult(
        tuple(s for r in results for s in r.checked),
        tuple(f for r in results for f in r.findings),
        tuple(p for r in results for p in r.ignored),
        tuple(h for r in results for h in r.hidden),
    )


def _report(
    result: CheckResult, skills_dir: str, *, strict: bool, staged: bool, as_json: bool, quiet: bool
) -> Result:
    code = EXIT_FAILURE if result.errors else EXIT_OK
    notes = () if quiet else hidden_notes(result.hidden, skills_dir)
    if as_json:
        return Result(
            code,
            doc={
                "ok": result.errors == 0,
                "mode": "strict" if strict else "default",
                "source": "index" if staged else "worktree",
                "skills_checked": len(result.checked),
                "errors": result.errors,
                "warnings": result.warnings,
                "findings": [f.to_json() for f in result.findings],
                "hidden_skills": list(result.hidden),
            },
            notes=notes,
        )
    findings = findings_text(result.findings, show_warnings=not quiet)
    summary = (
        f"{plural(len(result.checked), 'skill')} checked"
        f" ({'strict' if strict else 'default'} mode{', staged' if staged else ''}): "
        f"{plural(result.errors, 'error')}, {plural(result.warnings, 'warning')}"
    )
    lines = [findings, summary] if findings else [summary]
    if result.errors:
        return Result(code, notes=(*notes, *lines))
    return Result(code, text="\n".join(lines), notes=notes)

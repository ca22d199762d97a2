"""`gitcurator init`: make a folder of skills a skills repository and commit what is there."""

from __future__ import annotations

import shutil
from pathlib import Path

from gitcurator.commands.library_notes import NestedWalk, hidden_notes, nested_notes
from gitcurator.commands.parallel_checks import precheck
from gitcurator.config import CONFIG_FILE, DEFAULT_CONFIG_TEXT, Config, parse_config
from gitcurator.errors import EXIT_OK, NotARepository, UsageError
from gitcurator.library import SkillsRepo, init_store, read_config
from gitcurator.output import Result, failed, warning_line
from gitcurator.progress import NO_PROGRESS, Progress, step
from gitcurator.render import findings_text, plural
from gitcurator.skills.check_memo import SkillMemo
from gitcurator.skills.check_skill import frontmatter_name
from gitcurator.skills.check_tree import check_tree
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.store import ObjectID, Store
from gitcurator.store.commits import commit_tree_of
from gitcurator.store.objects import LINK_MODE
from gitcurator.store.staging import WorktreeScan
from gitcurator.store.trees import remember_tree_entries
from gitcurator.telemetry.names import refresh_names_cache
from gitcurator.telemetry.names_index import remember


def init(
    path: Path, *, verify: bool = True, quiet: bool = False, progress: Progress = NO_PROGRESS
) -> Result:
    """Create or adopt the repository at `path`; validate and commit the skills found there
    (`progress` hears how the reading, checking and committing get on)."""
    path = path.absolute()
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path} is a file; give a folder to turn into a skills repository")
    _refuse_git_dir(path)
    _refuse_nested(path)
    existing_config = read_config(path) if (path / CONFIG_FILE).exists() else None
    store, created = init_store(path)
    try:
        with store:
            if store.head_commit() is not None:
                result = _adopt(store, existing_config is None, progress)
            else:
                result = _first_commit(store, created, verify, progress)
    except BaseException:
        _undo(path, created)
        raise
    if result.code != EXIT_OK:
        _undo(path, created)
    return Result(result.code, "" if quiet else result.text, None, result.notes)


def _remember_what_was_read(
    repo: SkillsRepo,
    scan: WorktreeScan,
    commit: ObjectID,
    skills: list[SkillLocation],
    parsed: dict[str, str],
) -> None:
    """The new tree's listing and every SKILL.md's name, handed to the caches the names cache
    is rebuilt through: else it reads back the 20,000 trees and 10,000 blobs at 10,000 skills
    that were written a moment ago (seconds, in dulwich)."""
    store = repo.store
    entries = {f.path: (f.sha, f.mode) for f in scan.files}
    tree = commit_tree_of(store, commit)
    remember_tree_entries(store, tree, entries)
    names = {}
    for loc in skills:
        sha, mode = entries[loc.skill_md]
        blob = sha.decode()
        if mode != LINK_MODE:
            data = scan.blobs[sha]
            names[blob] = parsed[blob] if blob in parsed else frontmatter_name(data)
    remember(store, tree, {p: sha.decode() for p, (sha, _mode) in entries.items()}, names)


_NESTED_BESIDE_ABOVE = 5000  # files: above this the nested-repository walk is worth a fork


def _undo(path: Path, created: bool) -> None:
    if created:
        # We made .git a moment ago and committed nothing: leave the folder as we found it.
        shutil.rmtree(path / ".git", ignore_errors=True)


def _is_git_dir(folder: Path) -> bool:
    """A .git folder or a bare repository: git's own storage, never a library of skills."""
    if folder.name == ".git":
        return True
    return (
        not (folder / ".git").exists()
        and (folder / "HEAD").is_file()
        and (folder / "objects").is_dir()
        and (folder / "refs").is_dir()
    )


def _refuse_git_dir(path: Path) -> None:
    # Else init would make a repository inside git's storage and commit its objects and refs.
    for folder in (path, *path.parents):
        if folder.is_dir() and _is_git_dir(folder):
            raise UsageError(
                f"{path} is {'' if folder == path else 'inside '}the git directory {folder} "
                "(a .git folder or a bare repository), not a folder of skills; give the work "
                "tree that holds the skills (for a bare repository, `git clone` it first)"
            )


def _refuse_nested(path: Path) -> None:
    if (path / ".git").exists():
        return
    try:
        outer = Store.discover(path if path.exists() else path.parent)
    except NotARepository:
        return
    with outer:
        root = outer.root
    if root != path.resolve():
        rel = path.resolve().relative_to(root).as_posix()
        raise UsageError(
            f"{path} is inside the git repository {root}; run `gitcurator init {root}` "
            f"and set `skills_dir: {rel}` in its {CONFIG_FILE} instead"
        )


def _adopt(store: Store, needs_config: bool, progress: Progress) -> Result:
    if not needs_config:
        return Result(
            text=f"{store.root} is already a skills repository; nothing to do",
            notes=nested_notes(store),
        )
    store.commit_new_file(
        CONFIG_FILE,
        DEFAULT_CONFIG_TEXT.encode(),
        "gitcurator: add default configuration\n\nAdded by `gitcurator init`.\n",
    )
    text = f"adopted the repository {store.root}: added {CONFIG_FILE} in a new commit"
    # The skills are already in history, so nothing is refused; but a person adopting a
    # repository should hear at once that some skills would fail the hook.
    config = parse_config((store.root / CONFIG_FILE).read_text(encoding="utf-8"))
    result = check_tree(
        store.worktree_tree(),
        skills_dir=config.skills_dir,
        include=config.include,
        progress=progress,
    )
    notes = (*hidden_notes(result.hidden, config.skills_dir), *nested_notes(store))
    if not result.errors:
        return Result(text=text, notes=notes)
    return Result(
        text=text,
        notes=(
            *notes,
            warning_line(
                f"{plural(result.errors, 'validation error')} in the adopted skills; see "
                f"`gitcurator validate -C {store.root}` (the pre-commit hook will refuse "
                "commits of those skills until they are fixed)"
            ),
        ),
    )


def _first_commit(store: Store, created: bool, verify: bool, progress: Progress) -> Result:
    scan = store.scan_worktree(progress)
    config_path = store.root / CONFIG_FILE
    config = parse_config(config_path.read_text(encoding="utf-8")) if config_path.exists() else None
    skills_dir = config.skills_dir if config else ""
    include = config.include if config else ()
    tree = store.scan_tree(scan)
    memo = SkillMemo({f.path: (f.sha.decode(), f.mode) for f in scan.files}, known={})
    found = memo.discover(tree.paths, skills_dir, include)[0]
    parsed = precheck(tree, [s for s in found if not s.archived], False, memo)
    result = check_tree(tree, skills_dir=skills_dir, include=include, progress=progress, memo=memo)
    hidden = hidden_notes(result.hidden, skills_dir)
    if result.errors and verify:
        return failed(
            f"{plural(result.errors, 'error')} in {store.root}; nothing was written. "
            "Fix them (see `gitcurator validate`) or run `gitcurator init --no-verify`",
            notes=(*hidden, findings_text(result.findings, show_warnings=False)),
        )
    if config is None:
        config_path.write_text(DEFAULT_CONFIG_TEXT, encoding="utf-8")
        scan.add(str(config_path), CONFIG_FILE)
    skills = find_skills((f.path for f in scan.files), skills_dir, include)
    live = [s for s in skills if not s.archived]
    categories = {s.category for s in live if s.category}
    message = (
        f"gitcurator: start curating {plural(len(live), 'skill')}\n\n"
        f"Committed by `gitcurator init`: {plural(len(live), 'skill')} in "
        f"{plural(len(categories), 'category', 'categories')}, "
        f"{len(skills) - len(live)} archived, {plural(len(scan.files), 'file')} in all.\n"
    )
    with step("writing the commit", progress):
        commit = store.commit_scan(scan, message)
    # The walk for nested repositories (0.2 s at 10,000 skills) runs beside the names.
    with NestedWalk(store, len(scan.files) > _NESTED_BESIDE_ABOVE) as walk:
        repo = SkillsRepo(store, config or Config())
        _remember_what_was_read(repo, scan, commit, skills, parsed)
        refresh_names_cache(repo, progress)
        # HEAD is the scan, which holds no submodule link (a nested repository is left out).
        nested = walk.notes(())
    verb = "created" if created else "initialised"
    return Result(
        text=f"{verb} skills repository {store.root} (branch {store.head_branch()})\n"
        f"committed {plural(len(live), 'skill')}; validation: "
        f"{plural(result.errors, 'error')}, {plural(result.warnings, 'warning')}"
        + (" (see `gitcurator validate`)" if result.findings else "")
        + (
            f"; not committed: {plural(len(nested), 'nested repository', 'nested repositories')}"
            if nested
            else ""
        ),
        notes=(*hidden, *nested),
    )

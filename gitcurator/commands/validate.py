"""`gitcurator validate`: check skills in the work tree or the index."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from gitcurator.errors import EXIT_FAILURE, EXIT_OK, UsageError
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.render import findings_text, plural
from gitcurator.skills.check_tree import check_tree
from gitcurator.skills.nested_repos import nested_findings


def validate(
    start: Path,
    paths: Sequence[str],
    *,
    strict: bool = False,
    staged: bool = False,
    as_json: bool = False,
    quiet: bool = False,
) -> Result:
    """Validate the given paths (or every skill); exit 0 clean, 1 with errors.

    The findings and the summary are the text, on stdout when clean; with errors they go to
    stderr, as a linter's do, so they are notes there (and `--json` shows only the document).
    """
    with open_repo(start) as repo:
        tree = repo.store.staged_tree() if staged else repo.store.worktree_tree()
        only = None
        if paths:
            only = [repo.relpath(p) for p in paths]
            if not staged:
                missing = [p for p in paths if not Path(p).exists() and not Path(p).is_symlink()]
                if missing:
                    raise UsageError(f"no such file or folder: {', '.join(missing)}")
        result = check_tree(tree, skills_dir=repo.config.skills_dir, strict=strict, only=only)
        if not staged:
            nested = nested_findings(repo.store.nested_repositories(), only)
            result = replace(result, findings=(*result.findings, *nested))
    code = EXIT_FAILURE if result.errors else EXIT_OK
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
            },
        )
    findings = findings_text(result.findings, show_warnings=not quiet)
    summary = (
        f"{plural(len(result.checked), 'skill')} checked"
        f" ({'strict' if strict else 'default'} mode{', staged' if staged else ''}): "
        f"{plural(result.errors, 'error')}, {plural(result.warnings, 'warning')}"
    )
    lines = [findings, summary] if findings else [summary]
    if result.errors:
        return Result(code, notes=tuple(lines))
    return Result(code, text="\n".join(lines))

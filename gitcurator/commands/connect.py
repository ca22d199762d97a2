"""`gitcurator connect AGENT`, `connect --list`, `disconnect AGENT`: wire an agent's own hooks
(or plugin) to a skills library, show what is wired, take it out again.

connect: load (the agent's files, parsed; a broken or read-only one refuses, changing
nothing) → plan (every edit, agents.wiring) → apply (make the library a repository as `init`
would, back up and replace each edited file, remember the connection) → report.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gitcurator.agents import registry, settings_files, status
from gitcurator.agents.events import AGENTS
from gitcurator.agents.wiring import Plan, default_library, plan_connect, plan_disconnect
from gitcurator.errors import CuratorError, UsageError
from gitcurator.output import Result
from gitcurator.telemetry.gitdir import find_gitdir, state_dir


def connect(agent: str, library: Path | None, *, scope: str, mcp: bool, dry_run: bool) -> Result:
    """Wire `agent` to its skills folder (or `library`); idempotent."""
    if agent not in AGENTS:
        raise UsageError(f"unknown agent {agent!r}; choose one of {', '.join(AGENTS)}")
    project = Path.cwd()
    folder = (library or default_library(agent, scope, project)).expanduser().absolute()
    root, needs_init = _library_root(folder)
    plan = plan_connect(agent, scope, root, project, mcp)
    changes = [e for e in plan.edits if e.changes]
    if dry_run:
        lines = [f"would connect {agent} ({scope}) to {root}"]
        if needs_init:
            lines.append(f"  would make {root} a skills repository (as `gitcurator init` does)")
        lines += [f"  would write {e.path} ({e.what})" for e in changes]
        if not changes:
            lines.append("  nothing to change: already connected")
        return Result(text="\n".join(lines), doc=_doc(plan, needs_init, dry_run=True))
    entries = registry.load()  # a damaged registry refuses before any file is touched
    notes = list(plan.notes)
    if needs_init:
        notes += _init_library(agent, root)
    backups = [b for b in (settings_files.apply(e) for e in changes) if b is not None]
    key = registry.key(agent, scope, root)
    _keep_added(plan, entries.get(key))
    entries[key] = {
        "agent": agent,
        "scope": scope,
        "library": str(root),
        "files": plan.files,
        "connected_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    registry.save(entries)
    lines = [f"connected {agent} ({scope}) to {root}"]
    lines += [f"  wrote {e.path} ({e.what})" for e in changes]
    if not changes:
        lines.append("  already connected; nothing changed")
    lines += [f"  backup of the previous version: {b}" for b in backups]
    return Result(text="\n".join(lines), doc=_doc(plan, needs_init), notes=tuple(notes))


def _keep_added(plan: Plan, previous: dict[str, Any] | None) -> None:
    """A second connect finds its own entries in place: what an earlier one added (an MCP
    server, a plugins.enabled entry) stays ours to remove."""
    before = {f["path"]: f for f in (previous or {}).get("files", [])}
    planned = {f["path"] for f in plan.files}
    for item in plan.files:
        for fact in ("added", "created"):  # a file an earlier connect created is still ours
            if before.get(item["path"], {}).get(fact):
                item[fact] = True
    plan.files += [f for path, f in before.items() if path not in planned]


def _library_root(folder: Path) -> tuple[Path, bool]:
    """The skills repository for `folder` and whether it must be made one first.

    A folder inside a git repository that is not a skills repository (a project) is refused:
    making the project a skills repository is the person's decision, not connect's.
    """
    try:
        root, _ = find_gitdir(folder if folder.exists() else folder.parent)
    except FileNotFoundError:
        return folder, True
    if root == folder:
        return folder, not (folder / ".gitcurator.yaml").exists()
    if (root / ".gitcurator.yaml").exists():
        return root, False
    rel = folder.relative_to(root) if folder.is_relative_to(root) else folder
    raise CuratorError(
        f"{folder} is inside the git repository {root}, which is not a skills repository; run "
        f"`gitcurator init {root}` with `skills_dir: {rel}` in its .gitcurator.yaml, or give "
        "another folder with -C; nothing changed"
    )


def _init_library(agent: str, root: Path) -> list[str]:
    from gitcurator.commands.init import init

    root.mkdir(parents=True, exist_ok=True)
    if agent == "hermes":
        _ignore_hermes_state(root)
    init(root, verify=False, quiet=True)  # asking nothing: validation is `validate`'s job
    return [f"made {root} a skills repository; see `gitcurator validate -C {root}`"]


def _ignore_hermes_state(root: Path) -> None:
    from gitcurator.importers.hermes.state_files import (
        ignore_patterns,
        is_state_entry,
        updated_gitignore,
    )

    found = [p.name for p in root.iterdir() if is_state_entry(p.name)]
    path = root / ".gitignore"
    old = path.read_text(encoding="utf-8") if path.exists() else None
    new = updated_gitignore(old, ignore_patterns(found))
    if new is not None:
        path.write_text(new, encoding="utf-8")


def _doc(plan: Plan, needs_init: bool, dry_run: bool = False) -> dict[str, Any]:
    return {
        "agent": plan.agent,
        "scope": plan.scope,
        "library": str(plan.library),
        "init": needs_init,
        "dry_run": dry_run,
        "files": [{"path": str(e.path), "what": e.what, "changed": e.changes} for e in plan.edits],
        "notes": plan.notes,
    }


def list_connections() -> Result:
    """What is wired, where, the last event from each, and the unknown names they asked for."""
    rows = []
    for entry in registry.load().values():
        library = Path(entry.get("library", ""))
        state = _state_of(library)
        last = status.last_event(state, entry["agent"]) if state else None
        unknown = status.unknown_names(state, entry["agent"]) if state else None
        rows.append(
            {
                "agent": entry["agent"],
                "scope": entry.get("scope"),
                "library": str(library),
                "files": [f["path"] for f in entry.get("files", [])],
                "wired": all(_still_wired(entry, f) for f in entry.get("files", [])),
                "last_event_at": last.get("last_event_at") if last else None,
                "last_event": last.get("last_event") if last else None,
                "unknown": sum(unknown.values()) if unknown else 0,
                "unknown_names": dict(unknown.most_common(5)) if unknown else {},
            }
        )
    rows.sort(key=lambda r: (r["agent"], r["library"]))
    if not rows:
        return Result(text="no agent connected yet (see `gitcurator connect --help`)", doc=[])
    lines = []
    for r in rows:
        lines.append(
            f"{r['agent']} ({r['scope']}) -> {r['library']}: "
            f"{'wired' if r['wired'] else 'NOT wired any more (connect again)'}; last event: "
            + (f"{r['last_event']} at {r['last_event_at']}" if r["last_event_at"] else "none yet")
        )
        if r["unknown"]:
            top = ", ".join(f"{n} ({c})" for n, c in r["unknown_names"].items())
            lines.append(
                f"  {r['unknown']} loads of skills this library lacks (skills from another "
                f"folder?): {top}"
            )
    return Result(text="\n".join(lines), doc=rows)


def _state_of(library: Path) -> Path | None:
    try:
        _, gitdir = find_gitdir(library)
    except (FileNotFoundError, OSError):
        return None
    return state_dir(gitdir)


def _still_wired(entry: dict[str, Any], item: dict[str, Any]) -> bool:
    from gitcurator.agents import hooks_json
    from gitcurator.agents.wiring import is_our_hook

    path = Path(item["path"])
    if item.get("kind") != "hooks-json":
        return path.exists()
    try:
        doc = hooks_json.parse(path.read_text(encoding="utf-8"), path)
    except (OSError, CuratorError):
        return False
    return hooks_json.has_hook(doc, is_our_hook(entry["agent"], Path(entry["library"])))


def disconnect(agent: str, library: Path | None, *, scope: str | None) -> Result:
    """Remove exactly what `connect` added for `agent` (all its connections, or those of
    `scope` and `library`)."""
    if agent not in AGENTS:
        raise UsageError(f"unknown agent {agent!r}; choose one of {', '.join(AGENTS)}")
    entries = registry.load()
    wanted = library.expanduser().absolute() if library else None
    chosen = {
        k: e
        for k, e in entries.items()
        if e.get("agent") == agent
        and (scope is None or e.get("scope") == scope)
        and (wanted is None or Path(e.get("library", "")) == wanted or _inside(wanted, e))
    }
    if not chosen:
        return Result(text=f"{agent} is not connected; nothing to do")
    plans = {k: plan_disconnect(e) for k, e in chosen.items()}  # every file checked first
    lines = []
    for k, edits in plans.items():
        for edit in edits:
            if edit.changes:
                backup = settings_files.apply(edit)
                lines.append(
                    f"  {'removed' if edit.new is None else 'edited'} {edit.path}"
                    + (f" (backup: {backup})" if backup else "")
                )
        _remove_empty_plugin_folder(edits)
        del entries[k]
        lines.insert(0, f"disconnected {agent} from {chosen[k]['library']}")
    registry.save(entries)
    return Result(text="\n".join(lines))


def _inside(folder: Path, entry: dict[str, Any]) -> bool:
    return folder.is_relative_to(Path(entry.get("library", "/nonexistent")))


def _remove_empty_plugin_folder(edits: list[settings_files.FileEdit]) -> None:
    import shutil

    for edit in edits:
        # Only the plugin's folder is ours: a removed settings file's folder (~/.claude, a
        # project holding .mcp.json) and its __pycache__ are the user's.
        if edit.what == "hermes-plugin" and edit.new is None and edit.path.parent.is_dir():
            shutil.rmtree(edit.path.parent / "__pycache__", ignore_errors=True)
            if not any(edit.path.parent.iterdir()):
                edit.path.parent.rmdir()

"""The functional core stays pure: checked by reading its code and by importing it.

Pure modules take data and `now` and return data. They may not reach git, the network, the
terminal, the clock or the environment, directly or through a module that does; that is what
makes the lifecycle table-testable and a dry run honest. New modules in a pure sub-package
are covered without editing this file.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "gitcurator"

# Whole sub-packages that are pure, less the modules named as their shell.
PURE_PACKAGES = {
    "skills": set(),
    "umbrella": {"model_client.py", "model_retries.py"},
    "lifecycle": set(),
    "audit": {"passes.py"},
    # page.py renders with jinja2, which imports threading and tempfile for its own caches; it
    # is handed the template's text and reads and writes nothing.
    "health": {"page.py"},
    "search": {"index_cache.py"},
    "review": set(),
    "references": set(),
    "upstream": set(),
}
PURE_MODULES = {
    "sync/notes_merge.py",
    "telemetry/records.py",
    "indented_json.py",
    "frozen_rows.py",
    "telemetry/screen.py",
    "progress.py",
    "json_values.py",
    "config/plain.py",
}

# Third-party and standard modules that reach outside the process, or are other rooms' tools.
FORBIDDEN_IMPORTS = {
    "dulwich",
    "openai",
    "click",
    "mcp",
    "subprocess",
    "socket",
    "shutil",
    "tempfile",
    "fcntl",
    "http",
    "urllib.request",
    "sqlite3",
    "threading",
}
# gitcurator modules that do I/O (git, files, terminal, network).
IMPURE_GITCURATOR = (
    "gitcurator.store",
    "gitcurator.library",
    "gitcurator.output",
    "gitcurator.commands",
    "gitcurator.cli",
    "gitcurator.entry",
    "gitcurator.curation",
    "gitcurator.statefiles",
    "gitcurator.locks",
    "gitcurator.error_handler",
    "gitcurator.agents",
    "gitcurator.mcp",
    "gitcurator.search.index_cache",
    "gitcurator.telemetry.journal",
    "gitcurator.telemetry.ledger",
    "gitcurator.telemetry.names",
    "gitcurator.telemetry.recording",
    "gitcurator.umbrella.model_client",
    "gitcurator.importers",
    "gitcurator.sync.exchange",
)
FORBIDDEN_CALLS = {"print", "open", "input", "breakpoint", "utc_now"}
# Attribute calls that read the clock, the environment or files whatever their receiver.
FORBIDDEN_ATTRIBUTES = {
    ("os", "environ"),
    ("os", "getenv"),
    ("os", "getcwd"),
    ("os", "listdir"),
    ("os", "walk"),
    ("os", "stat"),
    ("os", "remove"),
    ("time", "time"),
    ("time", "time_ns"),
    ("time", "monotonic"),
    ("time", "sleep"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("sys", "stdout"),
    ("sys", "stderr"),
    ("sys", "stdin"),
}
FILE_METHODS = {"read_text", "write_text", "read_bytes", "write_bytes", "mkdir", "unlink", "touch"}


def pure_modules() -> list[str]:
    found = set(PURE_MODULES)
    for package, shell in PURE_PACKAGES.items():
        for path in sorted((PACKAGE / package).rglob("*.py")):
            relative = path.relative_to(PACKAGE / package).as_posix()
            if relative not in shell:
                found.add(f"{package}/{relative}")
    return sorted(found)


def _dotted(module: str) -> str:
    name = "gitcurator." + module.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for name in sorted(_imported(tree)):
        outside = name.split(".")[0] in FORBIDDEN_IMPORTS or name in FORBIDDEN_IMPORTS
        if outside or any(name == m or name.startswith(m + ".") for m in IMPURE_GITCURATOR):
            found.append(f"imports {name}")
    for node in ast.walk(tree):
        call = node.func if isinstance(node, ast.Call) else None
        if isinstance(call, ast.Name) and call.id in FORBIDDEN_CALLS:
            found.append(f"line {node.lineno}: calls {call.id}()")
        if isinstance(call, ast.Attribute) and call.attr in FILE_METHODS:
            found.append(f"line {node.lineno}: calls .{call.attr}()")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (node.value.id, node.attr) in FORBIDDEN_ATTRIBUTES
        ):
            found.append(f"line {node.lineno}: uses {node.value.id}.{node.attr}")
    return found


def test_the_pure_core_is_not_empty() -> None:
    modules = pure_modules()
    assert len(modules) >= 20, modules
    for module in ("skills/check_skill.py", "lifecycle/rules.py", "umbrella/proposal_checks.py"):
        assert module in modules or any(m.startswith(module[:-3]) for m in modules), module


@pytest.mark.parametrize("module", pure_modules())
def test_a_pure_module_does_no_io_by_its_code(module: str) -> None:
    assert _violations(PACKAGE / module) == []


def test_the_checker_sees_what_it_must() -> None:
    """The AST check itself: a module that prints, reads the clock and imports the store fails."""
    sample = PACKAGE.parent / "tests" / "_impure_sample.py"
    sample.write_text(
        "import os\nfrom datetime import datetime\nfrom gitcurator.store import Store\n"
        "def f():\n    print(os.environ['X'], datetime.now())\n    return open('x')\n",
        encoding="utf-8",
    )
    try:
        found = _violations(sample)
    finally:
        sample.unlink()
    assert "imports gitcurator.store" in found
    assert any("print()" in f for f in found)
    assert any("os.environ" in f for f in found)
    assert any("datetime.now" in f for f in found)
    assert any("open()" in f for f in found)


def test_importing_the_pure_core_loads_no_impure_module() -> None:
    """Imported one by one in a fresh interpreter: which impure module each one drags in."""
    modules = [_dotted(m) for m in pure_modules()]
    script = (
        "import importlib, json, sys\n"
        f"bad = {sorted(FORBIDDEN_IMPORTS)!r}\n"
        f"impure = {IMPURE_GITCURATOR!r}\n"
        "found = {}\n"
        "for name in json.loads(sys.argv[1]):\n"
        "    importlib.import_module(name)\n"
        "    loaded = [m for m in sys.modules if m.split('.')[0] in bad or m in bad\n"
        "              or any(m == p or m.startswith(p + '.') for p in impure)]\n"
        "    if loaded:\n"
        "        found[name] = sorted(loaded)\n"
        "        break\n"
        "print(json.dumps(found))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(modules)],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    )
    assert json.loads(done.stdout) == {}

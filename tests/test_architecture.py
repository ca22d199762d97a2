"""The layering rules, checked: one place for dulwich, one for click, one for the mcp SDK, no
openai on the hot path."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "gitcurator"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _modules() -> dict[str, set[str]]:
    return {p.relative_to(PACKAGE).as_posix(): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_only_the_store_package_imports_dulwich() -> None:
    users = {m for m, deps in _modules().items() if "dulwich" in deps}
    assert users and all(m.startswith("store/") for m in users), sorted(users)


def test_only_the_cli_package_imports_click() -> None:
    users = {m for m, deps in _modules().items() if "click" in deps}
    assert users and all(m.startswith("cli/") for m in users), sorted(users)


def test_nothing_imports_openai_yet_outside_one_module() -> None:
    users = {m for m, deps in _modules().items() if "openai" in deps}
    assert len(users) <= 1, sorted(users)


def test_only_the_mcp_server_module_imports_the_mcp_sdk() -> None:
    # `mcp_types` ships with the SDK: its protocol types are part of it.
    users = {m for m, deps in _modules().items() if deps & {"mcp", "mcp_types"}}
    assert users == {"mcp/server.py"}, sorted(users)


def test_the_hot_path_modules_import_only_the_standard_library() -> None:
    modules = _modules()
    third_party = {"dulwich", "click", "yaml", "jsonschema", "openai", "detect_secrets"}
    for name in (
        "statefiles.py",
        "telemetry/events.py",
        "telemetry/gitdir.py",
        "telemetry/host.py",
        "telemetry/journal.py",
        "telemetry/names_cache.py",
        "telemetry/recording.py",
        "entry.py",
        "error_handler.py",
        "errors.py",
    ):
        assert not modules[name] & third_party, (name, modules[name] & third_party)


ARCHITECTURE = Path(__file__).parents[1] / "ARCHITECTURE.md"


def _sub_packages() -> set[str]:
    return {p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("__init__.py")} - {"."}


def test_architecture_names_every_sub_package_and_nothing_else() -> None:
    import re

    text = ARCHITECTURE.read_text(encoding="utf-8")
    rooms = set(re.findall(r"^\| `([a-z_]+)/` \|", text, flags=re.M))
    top = {p for p in _sub_packages() if "/" not in p}
    assert rooms == top, (sorted(rooms - top), sorted(top - rooms))
    for nested in (p for p in _sub_packages() if "/" in p):
        assert f"`{nested.rsplit('/', 1)[1]}/`" in text, nested


def test_architecture_names_only_top_level_modules_that_exist() -> None:
    import re

    text = ARCHITECTURE.read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_]+)\.py`", text))
    for name in named:
        assert any(PACKAGE.rglob(f"{name}.py")), name


def test_every_module_architecture_names_exists() -> None:
    """`curation/pass_plan`, `store/refs.move_ref`: the data paths name real modules."""
    import re

    text = ARCHITECTURE.read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_]+/[a-z_]+)(?:\.[a-z_]+)?`", text))
    assert len(named) > 20, named
    for module in sorted(n for n in named if not n.startswith("tests/")):
        path = PACKAGE / module
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), module

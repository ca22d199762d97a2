"""The built wheel carries the schemas, the hook and the demo's catalogue: use them from an
installed wheel."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (found,) = out.glob("gitcurator-*.whl")
    return found


def test_wheel_contains_schemas_hook_and_demo_skills(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for schema in (ROOT / "schemas").glob("*.schema.json"):
        assert f"gitcurator/schemas/{schema.name}" in names
    assert "gitcurator/hooks/pre-commit" in names
    assert "gitcurator/health/report.html.j2" in names  # the health page's template
    for skill in (ROOT / "gitcurator" / "demo" / "skills").glob("*.md"):
        assert f"gitcurator/demo/skills/{skill.name}" in names


def test_schemas_load_from_the_installed_wheel_not_the_source(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    probe = (
        "import json, gitcurator.schemas as s, gitcurator.commands.hooks as h,"
        " gitcurator.demo.catalogue as c;"
        "print(json.dumps([str(s.schema_dir()), s.load('usage-record')['title'],"
        " str(h.hook_source()), c.__file__, len(c.SKILLS)]))"
    )
    # Run from an empty folder with only the unpacked wheel on the path (plus the venv's
    # dependencies), so the source checkout cannot be what answers.
    env_path = str(target)
    proc = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {env_path!r}); {probe}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    where, title, hook, catalogue, skills = json.loads(proc.stdout)
    assert Path(where) == target / "gitcurator" / "schemas"
    assert title.startswith("Per-skill usage and provenance record")
    assert Path(hook) == target / "gitcurator" / "hooks" / "pre-commit"
    assert Path(catalogue) == target / "gitcurator" / "demo" / "catalogue.py"
    assert skills == len(list((ROOT / "gitcurator" / "demo" / "skills").glob("*.md")))

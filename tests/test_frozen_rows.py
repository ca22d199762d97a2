"""@frozen_row: frozen to the type checker, compared, hashed and replaced as a frozen
dataclass is, at a plain class's cost."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from gitcurator.frozen_rows import frozen_row
from gitcurator.lifecycle.inventory import SkillRow


@frozen_row
class _Point:
    x: int
    y: int = 0


def test_rows_compare_and_hash_by_their_fields_and_change_only_by_replace() -> None:
    a, b = _Point(1, 2), _Point(1, 2)
    assert a == b and hash(a) == hash(b) and {a: "kept"}[b] == "kept"
    moved = replace(a, y=5)
    assert (a.y, moved.y) == (2, 5)
    assert not hasattr(a, "__dict__")  # slots: no field can be added by a typo either
    with pytest.raises(AttributeError):
        a.z = 1  # type: ignore[attr-defined]


def test_mypy_refuses_an_assignment_to_a_field(tmp_path: Path) -> None:
    # At run time the class is plain (its __init__ is the point): the type checker is what
    # keeps every field read-only, so this must keep failing under mypy.
    code = tmp_path / "assigns.py"
    code.write_text(
        "from gitcurator.lifecycle.inventory import SkillRow\n"
        "def rename(row: SkillRow) -> None:\n"
        "    row.name = 'other'\n"
    )
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--strict", str(code)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert checked.returncode == 1, checked.stdout
    assert 'Property "name" defined in "SkillRow" is read-only' in checked.stdout


def test_the_row_classes_assign_plainly_in_their_init() -> None:
    # What makes them cheap: no __setattr__ of a frozen dataclass on the class, which its
    # __init__ would have to go round field by field.
    assert SkillRow.__setattr__ is object.__setattr__
    assert _Point.__setattr__ is object.__setattr__

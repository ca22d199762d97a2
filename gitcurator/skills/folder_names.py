"""The names that mark a skill's folder and the folders that never hold one (pure), apart
from `skills/document` so that a walk of the work tree can know them without PyYAML."""

from __future__ import annotations

SKILL_FILE = "SKILL.md"
SKILL_FILE_LOWER = "skill.md"
# Folders that never hold skills: tooling and dependency trees an agent may leave behind.
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "env", "site-packages"})
VENV_MARKER = "pyvenv.cfg"  # a Python virtual environment, under any name (`.venv`)

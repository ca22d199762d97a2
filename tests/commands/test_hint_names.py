"""A hint's command runs as shown, whatever the skill's name: `--` before a name starting with
'-', shell quotes around one a shell would split or expand."""

from __future__ import annotations

import re
from pathlib import Path

from support.repos import git, run_cli, write_skill

from gitcurator.render import name_arg


def test_name_arg_quotes_and_ends_options() -> None:
    assert name_arg("pdf-extract") == "pdf-extract"
    assert name_arg("-21risk-automation") == "-- -21risk-automation"
    assert name_arg("a b") == "'a b'"
    assert name_arg("*") == "'*'"


def test_the_restore_hint_of_archive_runs_as_shown(repo: Path) -> None:
    write_skill(repo, "-21risk-automation")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "a dash name", cwd=repo)
    archived = run_cli("archive", "-C", str(repo), "--", "-21risk-automation")
    assert archived.code == 0, archived
    hint = re.search(r"`gitcurator (restore [^`]*)`", archived.out)
    assert hint is not None and hint.group(1) == "restore -- -21risk-automation"
    assert run_cli("restore", "-C", str(repo), *hint.group(1).split()[1:]).code == 0

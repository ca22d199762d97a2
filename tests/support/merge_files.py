"""Real `git merge-file`, the reference the text merge must agree with."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git_merge_file(folder: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[bytes, int]:
    """`git merge-file -p` in git's default style: (result, conflicts, at most 127)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, content in (("ours", ours), ("base", base), ("theirs", theirs)):
        path = folder / name
        path.write_bytes(content)
        paths.append(str(path))
    labels = ["-L", "local", "-L", "base", "-L", "upstream"]
    done = subprocess.run(
        ["git", "-c", "merge.conflictStyle=merge", "merge-file", "-p", *labels, *paths],
        capture_output=True,
        check=False,
    )
    assert 0 <= done.returncode <= 127, done.stderr  # 127: that many conflicts or more
    return done.stdout, done.returncode

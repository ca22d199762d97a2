"""A real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright, for pages the
tests open: never Playwright's own browsers, never the network."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GITCURATOR_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium dials out at start-up (updates, sync,
# field trials); on a closed network those connections are refused and logged.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_or_skip() -> str:
    """The Chromium binary, or skip the test saying why there is none."""
    found = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    if not found:
        pytest.skip(f"no Chromium at {CHROMIUM}: `.ci/run` installs Debian's chromium with apt")
    # Ubuntu's apt `chromium` is a shim asking for the snap, which a container cannot run.
    try:
        ran = subprocess.run(
            [found, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"{found} does not run: {exc}")
    if ran.returncode != 0:
        said = (ran.stdout + ran.stderr).strip().splitlines()
        pytest.skip(f"{found} --version failed ({said[0] if said else ran.returncode})")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("playwright is not installed (it is in the `test` extra)")
    return found


@dataclass
class Visit:
    """What opening a page showed: its console errors, page errors and requests."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@contextmanager
def browser() -> Iterator[Any]:
    """A launched headless Chromium (Playwright's Browser)."""
    executable = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=executable, args=FLAGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def open_page(
    launched: Any, path: Path, *, width: int = 1280, height: int = 800, dark: bool = False
) -> tuple[Any, Visit]:
    """A new page at `path` (file://), watching its console and every request it makes."""
    context = launched.new_context(
        viewport={"width": width, "height": height}, color_scheme="dark" if dark else "light"
    )
    page = context.new_page()
    visit = Visit()
    page.on("console", lambda m: visit.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: visit.errors.append(str(e)))
    page.on("request", lambda r: visit.requests.append(r.url))
    page.goto(path.as_uri(), wait_until="load")
    return page, visit

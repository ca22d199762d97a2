"""The health page's charts as inline SVG, drawn from data (pure).

Every text that comes from the library (a skill's name, a run id) is escaped here; colours are
CSS classes the page styles, so dark and light follow the system. Each chart is one <svg> with
a viewBox and no fixed width: it scales to its column on a phone and on a desktop.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from gitcurator.health.model import STATES, Edge, StatePoint
from gitcurator.health.usage_weeks import HeatMap

SOURCE_CLASSES = 6  # src-0 .. src-5 in the page's style
LABEL_CHARS = 28


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def _short(name: str, limit: int = LABEL_CHARS) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _svg(width: float, height: float, label: str, body: Sequence[str]) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {width:g} {height:g}" style="max-width:{width:g}px" '
        'role="img" '
        f'aria-label="{_text(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{_text(label)}</title>{''.join(body)}</svg>"
    )


def _empty(label: str, message: str) -> str:
    return _svg(
        400,
        60,
        label,
        [f'<text class="muted" x="200" y="34" text-anchor="middle">{_text(message)}</text>'],
    )


def bar_height(value: int, top: int, plot: float) -> float:
    """The height of a bar of `value` on a scale where `top` fills `plot`."""
    return 0.0 if top <= 0 else plot * value / top


def state_chart(points: Sequence[StatePoint]) -> str:
    """Stacked bars of skills by state: one bar per pass (before it ran), now, and what a
    pending pass would leave (hatched)."""
    label = "Skills by state over time"
    top = max((sum(p.counts.get(s, 0) for s in STATES) for p in points), default=0)
    if top == 0:
        return _empty(label, "no skills yet")
    left, bottom, head, plot_h = 44.0, 46.0, 24.0, 180.0
    slot = max(28.0, min(72.0, 640.0 / len(points)))
    width = max(left + slot * len(points) + 12, 300.0)  # room for the legend
    height = head + plot_h + bottom
    body = [_legend([(f"s-{s}", s) for s in STATES], left, 14)]
    for tick in (0, top / 2, top):
        y = head + plot_h - bar_height(round(tick), top, plot_h)
        body.append(
            f'<line class="grid" x1="{left:g}" x2="{width - 8:g}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{left - 6:g}" y="{y + 4:.1f}" text-anchor="end">'
            f"{round(tick)}</text>"
        )
    every = max(1, len(points) // 10)
    for i, point in enumerate(points):
        x = left + i * slot + slot * 0.15
        y = head + plot_h
        for state in STATES:
            n = point.counts.get(state, 0)
            h = bar_height(n, top, plot_h)
            if n:
                y -= h
                extra = " projected" if point.projected else ""
                body.append(
                    f'<rect class="bar s-{state}{extra}" x="{x:.1f}" y="{y:.1f}" '
                    f'width="{slot * 0.7:.1f}" height="{h:.1f}">'
                    f"<title>{_text(point.label)}: {n} {state}</title></rect>"
                )
        if i % every == 0 or i == len(points) - 1:
            tag = "next" if point.projected else point.time[:10] or point.label
            body.append(
                f'<text class="axis" x="{x + slot * 0.35:.1f}" y="{head + plot_h + 16:g}" '
                f'text-anchor="middle">{_text(tag)}</text>'
            )
    return _svg(width, height, label, body)


def heat_level(count: int, top: int) -> float:
    """A cell's opacity: 0 for no use, else from 0.2 (one use) up to 1 (the busiest cell)."""
    if count <= 0 or top <= 0:
        return 0.0
    return round(0.2 + 0.8 * count / top, 3)


def heat_chart(heat: HeatMap) -> str:
    """Skills (most used first) by weeks, each cell as dark as its uses; then each skill's
    uses by source where agents reported them."""
    label = "Uses per skill and week"
    if not heat.rows:
        return _empty(label, f"no uses recorded in the last {len(heat.weeks)} weeks")
    names_w, cell, head = 190.0, 18.0, 40.0
    sources = heat.sources
    split_w = 110.0 if sources else 0.0
    width = names_w + cell * len(heat.weeks) + split_w + 50
    height = head + cell * len(heat.rows) + 8
    top = max(max(r.counts) for r in heat.rows)
    body: list[str] = []
    if sources:
        body.append(
            _legend(
                [(f"src-{i % SOURCE_CLASSES}", s) for i, s in enumerate(sources)],
                names_w + cell * len(heat.weeks) + 12,
                12,
            )
        )
    for j, week in enumerate(heat.weeks):
        if (len(heat.weeks) - 1 - j) % 3 == 0:  # every third week, ending at this one
            x = names_w + j * cell + cell / 2
            body.append(
                f'<text class="axis" x="{x:.1f}" y="{head - 8:g}" text-anchor="middle">'
                f"{_text(week[5:])}</text>"
            )
    for i, row in enumerate(heat.rows):
        y = head + i * cell
        body.append(
            f'<text class="label" x="{names_w - 6:g}" y="{y + cell - 4:.1f}" text-anchor="end">'
            f"{_text(_short(row.name))}<title>{_text(row.name)}</title></text>"
        )
        for j, count in enumerate(row.counts):
            level = heat_level(count, top)
            body.append(
                f'<rect class="cell{"" if level else " none"}" x="{names_w + j * cell:.1f}" '
                f'y="{y:.1f}" width="{cell - 2:g}" height="{cell - 2:g}"'
                + (f' fill-opacity="{level:g}"' if level else "")
                + f"><title>{_text(row.name)}, week of {heat.weeks[j]}: {count}</title></rect>"
            )
        x = names_w + cell * len(heat.weeks) + 12
        total = sum(row.sources.values())
        for k, source in enumerate(sources):
            n = row.sources.get(source, 0)
            if n and total:
                w = (split_w - 12) * n / total
                body.append(
                    f'<rect class="src-{k % SOURCE_CLASSES}" x="{x:.1f}" y="{y + 2:.1f}" '
                    f'width="{w:.1f}" height="{cell - 6:g}">'
                    f"<title>{_text(row.name)}: {n} from {_text(source)}</title></rect>"
                )
                x += w
        body.append(
            f'<text class="axis" x="{names_w + cell * len(heat.weeks) + split_w + 4:.1f}" '
            f'y="{y + cell - 4:.1f}">{row.total}</text>'
        )
    return _svg(width, height, label, body)


def umbrella_chart(edges: Sequence[Edge], limit: int = 80) -> str:
    """Absorbed skills (left) joined to the umbrellas that hold them now (right); dashed while
    their pass awaits review. At most `limit` edges; the rest are counted."""
    label = "Umbrellas and the skills folded into them"
    if not edges:
        return _empty(label, "no skill has been folded into an umbrella yet")
    shown = list(edges[:limit])
    row, head, col_w = 18.0, 12.0, 210.0
    width = col_w * 2 + 160
    umbrellas: dict[str, list[int]] = {}
    body: list[str] = []
    for i, edge in enumerate(shown):
        umbrellas.setdefault(edge.umbrella, []).append(i)
    height = head + row * len(shown) + (row if len(edges) > limit else 0) + 8
    for i, edge in enumerate(shown):
        y = head + i * row + row / 2
        slots = umbrellas[edge.umbrella]
        uy = head + (slots[0] + slots[-1]) / 2 * row + row / 2
        x1, x2 = col_w, width - col_w
        dash = " pending" if edge.pending else ""
        body.append(
            f'<path class="edge{dash}" d="M{x1:g},{y:.1f} C{(x1 + x2) / 2:g},{y:.1f} '
            f'{(x1 + x2) / 2:g},{uy:.1f} {x2:g},{uy:.1f}"/>'
            f'<text class="label" x="{x1 - 6:g}" y="{y + 4:.1f}" text-anchor="end">'
            f"{_text(_short(edge.absorbed))}<title>{_text(edge.absorbed)}"
            f"{' (pending review)' if edge.pending else ''}</title></text>"
        )
    for name, slots in umbrellas.items():
        uy = head + (slots[0] + slots[-1]) / 2 * row + row / 2
        body.append(
            f'<circle class="node" cx="{width - col_w:g}" cy="{uy:.1f}" r="4"/>'
            f'<text class="label strong" x="{width - col_w + 8:g}" y="{uy + 4:.1f}">'
            f"{_text(_short(name))}<title>{_text(name)}</title></text>"
        )
    if len(edges) > limit:
        body.append(
            f'<text class="muted" x="{col_w:g}" y="{height - 8:.1f}" text-anchor="end">'
            f"and {len(edges) - limit} more</text>"
        )
    return _svg(width, height, label, body)


def _legend(items: Sequence[tuple[str, str]], x: float, y: float) -> str:
    parts = []
    for css, name in items:
        parts.append(
            f'<rect class="{css}" x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10"/>'
            f'<text class="axis" x="{x + 14:.1f}" y="{y:.1f}">{_text(name)}</text>'
        )
        x += 22 + 7 * len(name)
    return f'<g class="legend">{"".join(parts)}</g>'

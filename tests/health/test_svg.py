"""The charts: scales, empty and one-pass libraries, and hostile names escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from gitcurator.health import svg
from gitcurator.health.model import Edge, StatePoint
from gitcurator.health.usage_weeks import HeatMap, HeatRow

HOSTILE = ["<script>alert(1)</script>", 'a"b', "x&y", "</svg><img src=x onerror=alert(1)>"]


def _parse(markup: str) -> ET.Element:
    """Well-formed XML or the test fails: an unescaped name would break it."""
    return ET.fromstring(markup)


def _bars(markup: str) -> list[tuple[str, float]]:
    return [
        (m.group(1), float(m.group(2)))
        for m in re.finditer(
            r'<rect class="bar s-(\w+)[^"]*" x="[^"]+" y="[^"]+" width="[^"]+" height="([^"]+)"',
            markup,
        )
    ]


@pytest.mark.parametrize(
    ("value", "top", "height"), [(0, 10, 0.0), (5, 10, 90.0), (10, 10, 180.0), (3, 0, 0.0)]
)
def test_a_bar_is_as_tall_as_its_share_of_the_largest(value: int, top: int, height: float) -> None:
    assert svg.bar_height(value, top, 180.0) == height


def test_the_largest_total_fills_the_plot_and_others_scale() -> None:
    points = [
        StatePoint("a", "2026-11-01T00:00:00Z", {"active": 20}),
        StatePoint("b", "2026-11-08T00:00:00Z", {"active": 5, "stale": 5}),
    ]
    bars = _bars(svg.state_chart(points))
    assert bars == [("active", 180.0), ("active", 45.0), ("stale", 45.0)]


def test_a_projected_point_is_drawn_apart() -> None:
    markup = svg.state_chart(
        [
            StatePoint("now", "2026-11-01T00:00:00Z", {"active": 4}),
            StatePoint("if x merges", "", {"active": 2}, projected=True),
        ]
    )
    assert markup.count(" projected") == 1
    assert ">next<" in markup


def test_an_empty_library_says_so_in_each_chart() -> None:
    for markup, says in (
        (svg.state_chart([StatePoint("now", "2026-11-30T00:00:00Z", {})]), "no skills yet"),
        (
            svg.heat_chart(HeatMap(("2026-11-23", "2026-11-30"), (), 0)),
            "no uses recorded in the last 2 weeks",
        ),
        (svg.umbrella_chart([]), "no skill has been folded"),
    ):
        root = _parse(markup)
        assert root.tag.endswith("svg")
        assert says in markup


def test_one_pass_gives_one_bar_per_state_it_has() -> None:
    markup = svg.state_chart(
        [StatePoint("20261130-090000", "2026-11-30T09:00:00Z", {"active": 3, "archived": 1})]
    )
    assert [s for s, _ in _bars(markup)] == ["active", "archived"]
    assert "2026-11-30" in markup


@pytest.mark.parametrize(("count", "level"), [(0, 0.0), (1, 0.28), (10, 1.0), (5, 0.6)])
def test_a_heat_cell_darkens_with_its_uses(count: int, level: float) -> None:
    assert svg.heat_level(count, 10) == level


def test_heat_rows_keep_their_order_and_show_sources() -> None:
    heat = HeatMap(
        ("2026-11-23", "2026-11-30"),
        (HeatRow("busy", (3, 7), 10, {"codex": 4, "mcp": 6}), HeatRow("quiet", (0, 1), 1, {})),
        2,
    )
    markup = svg.heat_chart(heat)
    _parse(markup)
    assert markup.index(">busy<") < markup.index(">quiet<")
    assert "busy: 6 from mcp" in markup and "busy: 4 from codex" in markup
    assert 'class="cell none"' in markup  # quiet's empty week


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_escaped_in_every_chart(name: str) -> None:
    charts = [
        svg.state_chart([StatePoint(name, "2026-11-30T00:00:00Z", {"active": 1})]),
        svg.heat_chart(HeatMap(("2026-11-30",), (HeatRow(name, (2,), 2, {name: 2}),), 1)),
        svg.umbrella_chart([Edge(name, name, pending=True)]),
    ]
    for markup in charts:
        root = _parse(markup)
        assert "<script" not in markup and "<img" not in markup
        texts = "".join(root.itertext())
        assert name[: svg.LABEL_CHARS - 1] in texts or name in texts


def test_the_umbrella_graph_joins_each_skill_to_its_umbrella_and_counts_the_rest() -> None:
    edges = [Edge(f"s{i}", "umb-a" if i < 3 else "umb-b", pending=i == 4) for i in range(5)]
    markup = svg.umbrella_chart(edges, limit=4)
    _parse(markup)
    assert markup.count('<path class="edge') == 4
    assert markup.count('<circle class="node"') == 2
    assert "and 1 more" in markup
    assert markup.count("edge pending") == 0  # the pending one is past the limit
    assert svg.umbrella_chart(edges).count("edge pending") == 1

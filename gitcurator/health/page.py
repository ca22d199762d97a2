"""The health page as one self-contained HTML document: the template rendered with the page's
data, its charts inline and its skills as embedded JSON (pure: the template text is given).

Jinja2 escapes every value (autoescape); the charts come escaped from `health/svg`, and the
table's JSON has `<`, `>` and `&` written as \\u escapes, so a skill named `</script>` cannot
end the script element it sits in. What a terminal is never shown raw is not shown raw here
either (render.printable): the byte of a folder name that is not UTF-8 reads `\\xff` (it could
not be written at all), a control character or a bidirectional override is escaped.
"""

from __future__ import annotations

import json
from typing import Any

from jinja2 import Environment, StrictUndefined
from markupsafe import Markup

from gitcurator.health import svg
from gitcurator.health.model import COLUMNS, STATES, HealthPage
from gitcurator.render import name_arg, printable

TEMPLATE = "report.html.j2"  # package data beside this module
PAGE_ROWS = 50  # table rows drawn at once: the page stays fast at 10,000 skills


def script_json(doc: object) -> Markup:
    """`doc` as JSON that is safe inside <script type="application/json">."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(raw, escaped)
    # U+2028/9 are valid JSON but were line ends to old script parsers: escape them too.
    return Markup(text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render_page(template: str, page: HealthPage) -> str:
    """The HTML of `page`, from `template` (the text of report.html.j2)."""
    env = Environment(autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
    # A run id is a commit trailer a synced curator/* branch may carry: the page's commands to
    # copy quote it, so `x; curl … | sh` is one argument, not a second command.
    env.filters["shell"] = name_arg
    charts = {
        "states": Markup(svg.state_chart(page.states)),
        "heat": Markup(svg.heat_chart(page.heat)),
        "umbrellas": Markup(svg.umbrella_chart(page.edges)),
    }
    table: dict[str, Any] = {
        "columns": [{"key": key, "title": title} for key, title in COLUMNS],
        "rows": _shown(page.rows),
        "page_rows": PAGE_ROWS,
    }
    html = env.from_string(template).render(
        page=page,
        states=STATES,
        charts=charts,
        table=script_json(table),
    )
    # The table's strings are escaped already (JSON could not hold a \\x escape): this
    # reaches the charts and the markup.
    return printable(html)


def _shown(value: object) -> object:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list | tuple):
        return [_shown(v) for v in value]
    return value

"""The health page (`gitcurator report --html`): its data model, the SVG charts and the HTML
(pure: they take data and `now`; the template's text is handed in by `commands/report`).

`page` renders with Jinja2, which loads threading and tempfile for its own caches, so it is
this room's one module outside the purity test's import check; it reads and writes nothing.
"""

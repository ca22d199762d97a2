"""SKILL.md frontmatter as written: where its top-level keys sit, and their scalar text (for
strict mode's strictyaml view and duplicate-key findings); YAML is read only when asked."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import yaml

_KEY_LINE = re.compile(r"^([A-Za-z0-9_][^:#\n]*?)[ \t]*:(?=[ \t]|$)", re.M)


class FrontmatterSource:
    """The frontmatter as written: where its top-level keys sit, and their scalar text."""

    def __init__(self, data: bytes, body_line: int) -> None:
        text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        # Line 1 is the opening `---`; the closing one sits just above the body.
        self.text = "\n".join(text.split("\n", body_line - 1)[1 : body_line - 2])

    def line_of(self, key: str) -> int | None:
        """The 1-based file line of top-level `key`, if it is written plainly."""
        lines = self._key_lines.get(key)
        return lines[0] if lines else None

    def duplicate_keys(self) -> list[tuple[str, list[int]]]:
        """Top-level keys written more than once, with their lines (PyYAML keeps the last)."""
        keys = _KEY_LINE.findall(self.text)
        if len(keys) == len(set(keys)):
            return []
        import yaml  # here, not at the top: see skills/document

        # The line scan can be fooled by flow collections spread over lines; YAML's own view
        # of the top-level mapping decides.
        composed = [k.value for k, _ in self._pairs if isinstance(k, yaml.ScalarNode)]
        return [
            (key, lines)
            for key, lines in self._key_lines.items()
            if len(lines) > 1 and composed.count(key) > 1
        ]

    def scalar_text(self, key: str) -> str:
        """The source text of top-level scalar `key` (`~`, `123`, or "" when empty)."""
        import yaml

        for k, value in reversed(self._pairs):
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return str(value.value) if isinstance(value, yaml.ScalarNode) else ""
        return ""

    @functools.cached_property
    def _key_lines(self) -> dict[str, list[int]]:
        lines: dict[str, list[int]] = {}
        for match in _KEY_LINE.finditer(self.text):
            number = self.text.count("\n", 0, match.start()) + 2
            lines.setdefault(match.group(1), []).append(number)
        return lines

    @functools.cached_property
    def _pairs(self) -> list[tuple[yaml.Node, yaml.Node]]:
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            node = yaml.compose(self.text, Loader=loader)
        except yaml.YAMLError:
            return []
        return list(node.value) if isinstance(node, yaml.MappingNode) else []

"""Where a hub skill came from (pure): the value kept in its record and the `Skill-Source:`
trailer its commits carry, written and read back.

The trailer value is `NAME URL@COMMIT path=PATH ref=REF`, with URL, PATH and REF
percent-encoded where they hold spaces or `%`, so one line always splits the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

_SAFE = "/:@+~=,;!$&'()*?#[]"
_VALUE = re.compile(r"(\S+) (\S+)@([0-9a-f]{40}) path=(\S*)(?: ref=(\S+))?")


@dataclass(frozen=True, slots=True)
class Provenance:
    """A skill's source: `url`, its folder `path` there, the `ref` followed (None: HEAD) and
    the source `commit` the library's copy was taken from (or last merged with)."""

    url: str
    path: str
    ref: str | None
    commit: str

    def to_value(self) -> dict[str, Any]:
        """The record's `source.value` (schema: usage-record)."""
        return {"url": self.url, "path": self.path, "ref": self.ref, "commit": self.commit}


def from_value(value: object) -> Provenance | None:
    """A record's `source.value` as a Provenance (None when it is not one)."""
    if not isinstance(value, Mapping):
        return None
    url, path, ref, commit = (value.get(k) for k in ("url", "path", "ref", "commit"))
    if not isinstance(url, str) or not isinstance(path, str) or not isinstance(commit, str):
        return None
    return Provenance(url, path, ref if isinstance(ref, str) else None, commit)


def source_trailer(name: str, source: Provenance) -> str:
    """The `Skill-Source:` value naming `name`'s source."""
    ref = f" ref={quote(source.ref, safe=_SAFE)}" if source.ref else ""
    return (
        f"{name} {quote(source.url, safe=_SAFE)}@{source.commit} "
        f"path={quote(source.path, safe=_SAFE)}{ref}"
    )


def parse_source_trailer(value: str) -> tuple[str, Provenance] | None:
    """(name, provenance) from a `Skill-Source:` value, None when it is not one of ours."""
    match = _VALUE.fullmatch(value.strip())
    if match is None:
        return None
    name, url, commit, path, ref = match.groups()
    return name, Provenance(unquote(url), unquote(path), unquote(ref) if ref else None, commit)

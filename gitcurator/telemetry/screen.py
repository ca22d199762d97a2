"""Which journal events a flush may fold (pure): those naming a skill the library knows, at
a time no later than now plus the clock-skew allowance, as `record --at` demands.

A journal line is written by anything that can append to a file in `.git/` (an agent's hook,
a script, a hand edit): a name that is no skill would start a record for nothing, and a time
in the future would win every last-use comparison for good. Such names are dropped, counted
and named in the flush's warning; every other name of the same line is kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gitcurator.render import name_list, plural

if TYPE_CHECKING:  # the type only: this module stays pure
    from gitcurator.telemetry.events import Event


@dataclass(slots=True)
class Screened:
    """The events to fold and what was dropped (counts are of event names: one per skill)."""

    events: list[Event] = field(default_factory=list)
    unknown: Counter[str] = field(default_factory=Counter)  # skill name -> events dropped
    future: int = 0

    @property
    def dropped(self) -> int:
        return sum(self.unknown.values()) + self.future

    def warnings(self, latest: str) -> list[str]:
        """What a flush says about what it dropped (nothing when it dropped nothing)."""
        said = []
        if self.unknown:
            names = sorted(self.unknown)
            said.append(
                f"dropped {plural(sum(self.unknown.values()), 'journal event')} naming "
                f"{plural(len(names), 'unknown skill')} ({name_list(names)}); `record` "
                "refuses such names"
            )
        if self.future:
            said.append(
                f"dropped {plural(self.future, 'journal event')} dated in the future (after "
                f"{latest}); `record --at` refuses such times"
            )
        return said

    def to_json(self) -> dict[str, object]:
        """The drops as flush's --json reports them."""
        return {"unknown_skills": dict(sorted(self.unknown.items())), "future": self.future}


def screen_events(
    events: Iterable[Event], known: Callable[[list[str]], set[str]], latest: str
) -> Screened:
    """The events to fold: times after `latest` dropped whole, names outside `known(names)`
    (asked once, with every name the batch holds) dropped from their event."""
    batch = list(events)
    out = Screened()
    timely = []
    for event in batch:
        if event.at > latest:  # one text format: strings compare in time order
            out.future += len(event.names)
        else:
            timely.append(event)
    names = sorted({n for e in timely for n in e.names})
    ok = known(names) if names else set()
    for event in timely:
        kept = tuple(n for n in event.names if n in ok)
        out.unknown.update(n for n in event.names if n not in ok)
        if kept:
            out.events.append(event if kept == event.names else event._replace(names=kept))
    return out

"""UTC timestamps: one text format everywhere, so ISO strings also compare in time order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gitcurator.errors import UsageError

FORMAT = "%Y-%m-%dT%H:%M:%SZ"
# How far ahead of this clock an event's time may be (another machine's clock, a zone typed
# wrong): further, and last-use's newest-time-wins would keep a skill from ever going stale.
# git's racy rule: stat data taken within this long of the file's own times cannot vouch
# for its content (a change in the same clock tick would not show). Read at each use, as
# `timeutil.RACY_NS`: tests lower it.
RACY_NS = 1_000_000_000
CLOCK_SKEW = timedelta(days=1)


def utc_now() -> datetime:
    """The current time in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


def moment_of(now: str | None, what: str = "--now") -> datetime:
    """The moment a command judges time at: `--now` when given (to replay a pass), else now."""
    return parse_time(now, what) if now else utc_now()


def format_time(moment: datetime) -> str:
    """`2026-11-30T08:00:00Z`."""
    return moment.astimezone(UTC).strftime(FORMAT)


def parse_time(text: str, what: str = "timestamp") -> datetime:
    """An ISO-8601 moment (a date alone means midnight UTC; no zone means UTC)."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UsageError(
            f"{what} {text!r} is not an ISO-8601 time; write it like 2026-11-30T08:00:00Z"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC).replace(microsecond=0)
    except OverflowError:  # 9999-12-31T23:00-05:00 is in the year 10000 in UTC
        raise UsageError(f"{what} {text!r} is outside the years 1970-9999") from None
    # Canonical timestamps compare as text only with four-digit years; nothing an agent
    # records predates the epoch.
    if not 1970 <= moment.year <= 9999:
        raise UsageError(f"{what} {text!r} is outside the years 1970-9999")
    return moment


def normalise(text: str | None) -> str | None:
    """Any accepted timestamp text in the canonical format (None stays None)."""
    return None if text is None else format_time(parse_time(text))


def days_between(earlier: str, later: datetime) -> float:
    """Days from the timestamp `earlier` to `later` (negative if `earlier` is later)."""
    return (later - parse_time(earlier)) / timedelta(days=1)


def latest(*stamps: str | None) -> str | None:
    """The newest of canonical timestamps, ignoring None."""
    present = [s for s in stamps if s]
    return max(present) if present else None


def later_of(a: str | None, b: str | None) -> str | None:
    """latest(a, b) without its varargs and list: a flush asks it for every event, and twice
    for every record."""
    if not a:
        return b or None
    if not b:
        return a
    return b if b > a else a

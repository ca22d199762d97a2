"""When a failed model request is tried again, after how long, and how the last failure is
worded: the retry policy, apart from the HTTP that it governs.

Retries are ours rather than the openai client's so that every attempt is counted, the
backoff is ours to test, and the error names the endpoint. A request that timed out is tried
once more at most: a prompt the model could not answer within llm.timeout_seconds will not
be answered faster the third time, and each try costs the whole timeout.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

MAX_BACKOFF = 60.0
MAX_TIMEOUTS = 2  # tries that may end in a timeout, the first included

TIMEOUT = "timeout"
CONNECTION = "connection"
STATUS = "status"


@dataclass(frozen=True, slots=True)
class Failure:
    """One attempt that may be worth repeating: what went wrong, in words."""

    kind: str  # TIMEOUT, CONNECTION or STATUS
    cause: str  # "timed out after 3 s", "HTTP 503", "refused: connection refused"
    hint: str = "try again later"
    detail: str = ""  # the server's own words
    retry_after: float | None = None  # seconds the server asked us to wait


class Tries:
    """The attempts at one request: whether another is due, and after what pause."""

    def __init__(self, tries: int, backoff: float, retry_after_cap: float) -> None:
        self.tries = max(1, tries)
        self.backoff = backoff
        self.retry_after_cap = retry_after_cap
        self.made = 0
        self.timeouts = 0
        self.last: Failure | None = None

    def wait_after(self, failure: Failure) -> float | None:
        """Seconds to wait before the next try, or None when no try is left."""
        self.made += 1
        self.last = failure
        if failure.kind == TIMEOUT:
            self.timeouts += 1
            if self.timeouts >= MAX_TIMEOUTS:
                return None
        if self.made >= self.tries:
            return None
        if failure.retry_after is not None:
            return max(0.0, min(failure.retry_after, self.retry_after_cap))
        base = min(self.backoff * 2.0 ** (self.made - 1), MAX_BACKOFF)
        return base + random.uniform(0, base / 4)  # jitter keeps parallel passes apart

    def summary(self) -> str:
        """The last failure and the tries made, as the error says them."""
        failure = self.last
        if failure is None:  # pragma: no cover - asked only after a failure
            return "no try was made"
        tries = "1 try" if self.made == 1 else f"{self.made} tries"
        said = (
            f"{failure.cause} after {tries}"
            if failure.cause.startswith("HTTP")
            else f"{failure.cause} ({tries})"
        )
        return said + (f": {failure.detail}" if failure.detail else "")


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds a 429/503 asks us to wait (Retry-After-Ms, Retry-After seconds or date)."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return float(value) / scale
        except ValueError:
            pass
        if name == "retry-after":
            try:
                return email.utils.parsedate_to_datetime(value).timestamp() - time.time()
            except (TypeError, ValueError):
                return None
    return None

"""HTTP credentials from git's `store` credential helper files (~/.git-credentials), which
dulwich does not read (it takes them from the URL only)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from urllib.parse import unquote, urlparse


def stored_credentials(url: str) -> tuple[str | None, str | None]:
    """(user, password) for an HTTP(S) URL that has none, from git's credential files;
    matched on scheme, host and port, as git matches them."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or parsed.username or not parsed.hostname:
        return None, None
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    for path in (os.path.expanduser("~/.git-credentials"), os.path.join(xdg, "git", "credentials")):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            for line in Path(path).read_text(encoding="utf-8").splitlines():
                # A malformed line (a bad port, say) is skipped, as git skips it.
                with contextlib.suppress(ValueError):
                    stored = urlparse(line.strip())
                    if (
                        (stored.scheme, stored.hostname, stored.port)
                        == (parsed.scheme, parsed.hostname, parsed.port)
                        and stored.username
                        and stored.password is not None
                    ):
                        return unquote(stored.username), unquote(stored.password)
    return None, None

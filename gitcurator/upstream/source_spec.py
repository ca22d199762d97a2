"""What a SOURCE on the command line names (pure): a git URL, an scp-like address, a path,
or the `owner/repo` shorthand for a GitHub repository; and the names it is shown and stored by.
"""

from __future__ import annotations

import hashlib
import re

GITHUB_URL = "https://github.com/{}.git"
SIDE_PREFIX = b"refs/gitcurator/sources/"
# GitHub's owner names (alphanumerics and single hyphens) and repository names.
_SHORTHAND = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
_GITHUB = re.compile(r"https://github\.com/([A-Za-z0-9-]+/[A-Za-z0-9._-]+?)(?:\.git)?/?")
_SCP_LIKE = re.compile(r"^[^/\s]+@[^/\s]+:")


def is_shorthand(text: str) -> bool:
    """`owner/repo`: a GitHub repository, not a path (a local folder is written `./owner/repo`)."""
    return bool(_SHORTHAND.fullmatch(text)) and not text.endswith(("/.", "/.."))


def is_path(text: str) -> bool:
    """A SOURCE meant as a folder on this machine (not a URL, an address or the shorthand)."""
    return not ("://" in text or _SCP_LIKE.match(text) or is_shorthand(text))


def expand_source(text: str) -> str:
    """The URL a SOURCE stands for: the shorthand expanded to GitHub's HTTPS URL, anything else
    unchanged (a path is made absolute by the caller, which knows the current folder)."""
    return GITHUB_URL.format(text) if is_shorthand(text) else text


def shown_source(url: str) -> str:
    """A source as messages and commit subjects name it: `owner/repo` for GitHub, else its URL
    with any password masked."""
    match = _GITHUB.fullmatch(url)
    if match:
        return match.group(1)
    return re.sub(r"(://[^/:@]+):[^/@]*@", r"\1:***@", url)


def side_ref(url: str, ref: str | None) -> bytes:
    """The local ref that keeps what was fetched from (url, ref) reachable: one per pair, under
    refs/gitcurator/ (never a branch, so nothing checks it out or pushes it)."""
    key = hashlib.sha1(f"{url}\0{ref or ''}".encode()).hexdigest()[:16]
    return SIDE_PREFIX + key.encode()


def wanted_refs(ref: str | None) -> tuple[bytes, ...]:
    """The remote ref names that `ref` may mean, in the order git tries them (HEAD for none)."""
    if ref is None:
        return (b"HEAD",)
    if ref.startswith("refs/"):
        return (ref.encode(),)
    return (f"refs/heads/{ref}".encode(), f"refs/tags/{ref}".encode(), f"refs/{ref}".encode())


def is_commit_id(ref: str | None) -> bool:
    """A full commit id given as the ref (pinned: it never moves)."""
    return ref is not None and bool(re.fullmatch(r"[0-9a-f]{40}", ref))

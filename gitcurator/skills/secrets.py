"""Find API keys, tokens and private keys in text (pure), with detect-secrets' patterns."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

# Placeholders that docs use to show the shape of a key; a match containing one is not a secret.
_PLACEHOLDER = re.compile(
    r"example|xxxx|\.\.\.|your|placeholder|redacted|dummy|sample|fake|changeme|"
    r"0123|12345|abcde",
    re.IGNORECASE,
)
# Characters a token may be made of: the placeholder check looks at the whole token, not only
# at the part a pattern matched (`ghp_<36 chars>_EXAMPLE` matches without its `_EXAMPLE`).
_TOKEN_CHAR = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.+/=:")
# A real key carries a real key body after its header (possibly JSON-escaped `\n`), after
# optional `Proc-Type:`-style headers; docs that show `-----BEGIN RSA PRIVATE KEY-----\n...` do not.
_NEWLINE = r"(?:\\n|\n)"  # a real line break, or one escaped inside a JSON/YAML string
_KEY_BODY = re.compile(
    rf"[^\n]{{0,40}}?{_NEWLINE}(?:[ \t]*(?:[A-Za-z-]+:[^\n]*)?{_NEWLINE}){{0,8}}"
    r"[ \t\"']*[A-Za-z0-9+/]{40}"
)
_PUTTY_BODY = re.compile(r"[ \t]*:[ \t]*(?:ssh-|ecdsa-)")
_JWT_SIGNATURE = re.compile(r"\.?[A-Za-z0-9_-]{20}")


Gate = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class _Detector:
    """One kind of secret: its patterns (and a check of a match), run only when its gate in
    _gates passes. Each gate costs one pass over the text at C speed (`in`, or a regex that
    starts with a literal so the engine scans fast)."""

    kind: str
    patterns: tuple[re.Pattern[str], ...]
    confirm: Callable[[str, re.Match[str]], bool] | None = None


def _any_in(*needles: str) -> Gate:
    if len(needles) == 1:
        needle = needles[0]
        return lambda text: needle in text
    return lambda text: any(needle in text for needle in needles)


def _search(pattern: str) -> Gate:
    regex = re.compile(pattern)
    return lambda text: regex.search(text) is not None


def _either(*gates: Gate) -> Gate:
    return lambda text: any(gate(text) for gate in gates)


def scan_text(text: str) -> list[tuple[int, str]]:
    """The secrets in `text` as (1-based line, kind), in line order; placeholders are skipped."""
    passed = [i for i, gate in enumerate(_gates()) if gate(text)]
    if not passed:
        return []  # no gate passes: no pattern can match, and detect_secrets is not imported
    found: set[tuple[int, str]] = set()
    detectors = _detectors()
    for detector in (detectors[i] for i in passed):
        for pattern in detector.patterns:
            for match in pattern.finditer(text):
                if detector.confirm is not None and not detector.confirm(text, match):
                    continue
                if _is_placeholder(text, match.start(), match.end()):
                    continue
                found.add((text.count("\n", 0, match.start()) + 1, detector.kind))
    return sorted(found)


def _is_placeholder(text: str, start: int, end: int) -> bool:
    while start > 0 and text[start - 1] in _TOKEN_CHAR:
        start -= 1
    while end < len(text) and text[end] in _TOKEN_CHAR:
        end += 1
    token = text[start:end]
    # Few distinct characters: `AKIA0000000000000000`, `ghp_aaaa…` are shapes, not keys.
    return _PLACEHOLDER.search(token) is not None or len(set(token)) < 10


def _private_key_body(text: str, match: re.Match[str]) -> bool:
    if match.group(0).startswith("PuTTY"):
        return _PUTTY_BODY.match(text, match.end()) is not None
    return _KEY_BODY.match(text, match.end()) is not None


def _jwt_is_real(text: str, match: re.Match[str]) -> bool:
    """Header and payload decode to JSON objects (detect-secrets' test) and a signature follows."""
    parts = match.group(0).split(".")
    if len(parts) < 2 or _JWT_SIGNATURE.match(text, match.end()) is None:
        return False
    for part in parts[:2]:
        try:
            raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode("utf-8")
            decoded = json.loads(raw)
        except (ValueError, binascii.Error, RecursionError):  # nested past json's depth
            return False
        # jwt.io's sample token ({"sub": "1234567890", "name": "John Doe"}) is all over docs.
        if not isinstance(decoded, dict) or _PLACEHOLDER.search(raw) or "John Doe" in raw:
            return False
    return True


@functools.cache
def _detectors() -> tuple[_Detector, ...]:
    """detect-secrets' regex detectors plus ours, built once.

    Imported here, not at module level: importing detect_secrets costs ~250 ms (it pulls in
    requests and its scanning core), which commands that never validate must not pay.
    """
    from detect_secrets.plugins import (
        aws,
        azure_storage_key,
        discord,
        github_token,
        gitlab_token,
        jwt,
        mailchimp,
        npm,
        openai,
        private_key,
        pypi_token,
        sendgrid,
        slack,
        square_oauth,
        stripe,
        telegram_token,
        twilio,
    )

    def upstream(cls: type, **options: object) -> _Detector:
        return _Detector(cls.secret_type, tuple(cls.denylist), **options)  # type: ignore[attr-defined, arg-type]

    def ours(kind: str, pattern: str) -> _Detector:
        return _Detector(kind, (re.compile(pattern),))

    # The entropy and keyword plugins are left out on purpose: on prose and sample code they
    # flag every `password = "..."`; basic-auth URLs (`postgres://user:pass@host`) and
    # Artifactory's `AP[0-9A-F]…` likewise match documentation far more often than secrets.
    detectors = (
        upstream(private_key.PrivateKeyDetector, confirm=_private_key_body),
        upstream(aws.AWSKeyDetector),
        upstream(github_token.GitHubTokenDetector),
        ours("GitHub Token", r"github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}"),
        upstream(slack.SlackDetector),
        upstream(openai.OpenAIDetector),
        ours("Anthropic API Key", r"sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{80,}"),
        upstream(stripe.StripeDetector),
        upstream(gitlab_token.GitLabTokenDetector),
        upstream(npm.NpmDetector),
        ours("NPM tokens", r"\bnpm_[A-Za-z0-9]{36}\b"),
        upstream(pypi_token.PypiTokenDetector),
        upstream(sendgrid.SendGridDetector),
        upstream(twilio.TwilioKeyDetector),
        upstream(discord.DiscordBotTokenDetector),
        upstream(telegram_token.TelegramBotTokenDetector),
        upstream(mailchimp.MailchimpDetector),
        upstream(azure_storage_key.AzureStorageKeyDetector),
        upstream(square_oauth.SquareOAuthDetector),
        upstream(jwt.JwtTokenDetector, confirm=_jwt_is_real),
    )
    assert len(detectors) == len(_gates())  # one gate each, in the same order
    return detectors


@functools.cache
def _gates() -> tuple[Gate, ...]:
    """Each detector's gate, in _detectors' order, built without detect_secrets: a text no
    gate passes is answered without importing it. Every pattern match implies its gate.
    Upstream's case-insensitive patterns (AWS secret keys, Slack) are gated on the usual
    spellings only: a case-insensitive gate would cost ten times more on every file."""
    return (
        _any_in("PRIVATE KEY", "PuTTY-User-Key-File"),
        _either(_search(r"A3T|AKIA|ASIA|ABIA|ACCA"), _any_in("aws", "AWS", "Aws")),
        _search(r"gh[pousr]_"),
        _any_in("github_pat_"),
        _any_in("xox", "XOX", "hooks.slack.com"),
        _any_in("T3BlbkFJ"),
        _any_in("sk-ant-"),
        _any_in("k_live_"),
        _either(_search(r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-"), _any_in("GR1348941")),
        _any_in("_authToken"),
        _any_in("npm_"),
        _any_in("pypi-"),
        _any_in("SG."),
        _search(r"AC[a-z0-9]{32}|SK[a-z0-9]{32}"),  # upstream's two Twilio patterns, exactly
        _search(r"\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}"),
        _search(r":(?<=\d{8}:)[0-9A-Za-z_-]{35}"),
        _search(r"-us[0-9]"),
        _any_in("AccountKey="),
        _any_in("sq0csp-"),
        _any_in("eyJ"),
    )

"""Secret patterns: each kind found on its line, documented placeholders left alone, fast.

Keys are assembled at run time from pieces so that this file itself holds no string a secret
scanner (GitHub push protection, our own pre-commit hook) would flag.
"""

from __future__ import annotations

import base64
import json
import random
import string
import time

import pytest

from gitcurator.skills.secrets import scan_text


def fake(n: int, alphabet: str = string.ascii_letters + string.digits, seed: int = 7) -> str:
    """A random-looking, deterministic key body (no runs like `12345` that mark placeholders)."""
    rng = random.Random(seed * 1000 + n)
    while True:
        body = "".join(rng.choice(alphabet) for _ in range(n))
        if not any(run in body.lower() for run in ("0123", "12345", "abcde", "xxxx")):
            return body


def jwt(payload: dict[str, object]) -> str:
    def part(doc: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(doc).encode()).decode().rstrip("=")

    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(payload)}.{fake(43, seed=3)}"


UPPER_DIGITS = string.ascii_uppercase + string.digits
LOWER_DIGITS = string.ascii_lowercase + string.digits
PEM_BODY = fake(64, string.ascii_letters + string.digits + "+/")

FOUND = [
    ("Private Key", f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----"),
    ("Private Key", f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n"),
    ("Private Key", f'{{"private_key": "-----BEGIN PRIVATE KEY-----\\n{PEM_BODY}\\n"}}'),
    ("Private Key", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\n" + PEM_BODY),
    ("Private Key", "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\n"),
    ("AWS Access Key", "aws_access_key_id = AK" + "IA" + fake(16, UPPER_DIGITS)),
    ("AWS Access Key", f'aws_secret_access_key = "{fake(40, string.ascii_letters + "/+")}"'),
    ("GitHub Token", "token: gh" + "p_" + fake(36)),
    ("GitHub Token", "github" + "_pat_" + fake(22) + "_" + fake(59)),
    (
        "Slack Token",
        "SLACK_BOT_TOKEN=xo" + "xb-" + fake(11, string.digits) + "-" + fake(24, LOWER_DIGITS),
    ),
    (
        "Slack Token",
        "https://hooks.slack.com/services/T" + fake(8) + "/B" + fake(8) + "/" + fake(24),
    ),
    ("OpenAI Token", "sk-proj-" + fake(20) + "T3Blbk" + "FJ" + fake(20, seed=9)),
    (
        "Anthropic API Key",
        "ANTHROPIC_API_KEY=sk-" + "ant-api03-" + fake(93, string.ascii_letters + "_-"),
    ),
    ("Anthropic API Key", "sk-" + "ant-admin01-" + fake(80)),
    ("Stripe Access Key", "sk" + "_live_" + fake(24)),
    ("GitLab Token", "gl" + "pat-" + fake(20)),
    ("NPM tokens", "//registry.npmjs.org/:_auth" + "Token=npm_" + fake(36)),
    ("NPM tokens", "NPM_TOKEN=np" + "m_" + fake(36)),
    ("PyPI Token", "pypi-AgEIcHlwaS5vcmc" + fake(70, string.ascii_letters + "_-")),
    ("SendGrid API Key", "S" + "G." + fake(22) + "." + fake(43)),
    ("Twilio API Key", "A" + "C" + fake(32, LOWER_DIGITS)),
    ("Discord Bot Token", "M" + fake(23) + "." + fake(6) + "." + fake(27)),
    ("Telegram Bot Token", "bot" + fake(9, "6789") + ":AA" + fake(33, seed=11)),
    ("Mailchimp Access Key", fake(32, LOWER_DIGITS) + "-us" + "14"),
    (
        "Azure Storage Account access key",
        "AccountKey=" + fake(86, string.ascii_letters + "+/") + "==",
    ),
    ("Square OAuth Secret", "sq0" + "csp-" + fake(43)),
    ("JSON Web Token", "Authorization: Bearer " + jwt({"sub": "svc-billing", "role": "service"})),
]

PLACEHOLDERS = [
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    'aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
    "AKIA0000000000000000",
    "ANTHROPIC_API_KEY=sk-ant-api03-" + "x" * 93,
    "ANTHROPIC_API_KEY=sk-ant-api03-...",
    "export OPENAI_API_KEY=<your-key>",
    "GITHUB_TOKEN=ghp_" + "X" * 36,
    "GITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyz",
    "GITHUB_TOKEN=ghp_your" + fake(32),
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "Look for `BEGIN OPENSSH PRIVATE KEY` headers in leaked files.",
    # jwt.io's sample token, in every JWT tutorial.
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9l"
    "IiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "Set AWS credentials with `aws configure`; the key looks like AKIA followed by 16 chars.",
    "Tokens start with xoxb- (bot) or xoxp- (user).",
    "",
]


@pytest.mark.parametrize(
    ("kind", "text"), FOUND, ids=[f"{k}-{i}" for i, (k, _) in enumerate(FOUND)]
)
def test_finds_each_kind_on_its_line(kind: str, text: str) -> None:
    document = f"# Setup\n\nPut this in your shell:\n\n{text}\n\nThen run it.\n"
    assert (5, kind) in scan_text(document)


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_placeholders_and_prose_are_not_secrets(text: str) -> None:
    assert scan_text(f"Example:\n{text}\n") == []


def test_reports_each_line_and_kind_once_in_line_order() -> None:
    github = "gh" + "p_" + fake(36)
    stripe = "sk" + "_live_" + fake(24)
    text = f"a\n{stripe}\n{github} {github}\n\n{github}\n"
    assert scan_text(text) == [
        (2, "Stripe Access Key"),
        (3, "GitHub Token"),
        (5, "GitHub Token"),
    ]


def test_crlf_text_keeps_line_numbers() -> None:
    text = "one\r\ntwo\r\nkey = " + "sk" + "_live_" + fake(24) + "\r\n"
    assert scan_text(text) == [(3, "Stripe Access Key")]


def test_scanning_thousands_of_skills_is_fast() -> None:
    prose = (
        "## Steps\n\n1. Run `aws s3 ls` and check the token in ~/.config (see docs).\n"
        "```bash\nexport API_URL=https://api.example.com/v1/items?limit=100\n```\n"
        "Use [the guide](references/guide.md). Hash: 9f86d081884c7d659a2feaa0c55ad015\n"
    )
    documents = [(prose * 12)[:3000] + str(i) for i in range(1000)]
    scan_text("warm up: patterns compile and detect-secrets loads once")
    start = time.perf_counter()
    for document in documents:
        assert scan_text(document) == []
    # ~0.07 s here; 10,000 skills of 3 KB must stay well under 2 s.
    assert time.perf_counter() - start < 0.5

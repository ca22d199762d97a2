"""The one error hierarchy: every failure a user can act on is a CuratorError."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


# What json.loads raises on text that is not JSON: ValueError (JSONDecodeError), and
# RecursionError for arrays or objects nested past the interpreter's depth, which a hostile
# reply, log line or crafted file can hold. Every reader of untrusted JSON catches both.
JSON_READ_ERRORS: tuple[type[Exception], ...] = (ValueError, RecursionError)


class CuratorError(Exception):
    """A failure the user can act on; the message says what happened and what to do.

    `details` (lines such as a validation's findings) are shown before the message.
    """

    exit_code = EXIT_FAILURE

    def __init__(self, *args: object, details: str = "") -> None:
        super().__init__(*args)
        self.details = details


class UsageError(CuratorError):
    """The command line itself is wrong (bad flag value, unknown command)."""

    exit_code = EXIT_USAGE


class NotARepository(CuratorError):
    """The folder is not inside a skills repository."""


class ConfigError(CuratorError):
    """.gitcurator.yaml cannot be read or breaks its schema."""


class SchemaError(CuratorError):
    """A document gitcurator reads or writes does not match its JSON Schema."""


class ValidationFailed(CuratorError):
    """Skills failed validation; the findings are its details (or were already printed)."""


class StoreError(CuratorError):
    """The git repository is in a state gitcurator cannot work with."""


class StateFileError(CuratorError):
    """A file or folder under .git/gitcurator/ is a link, a folder, or cannot be written."""

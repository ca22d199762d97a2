"""The one door to a language model: an OpenAI-compatible chat endpoint, JSON-constrained
replies, each request bounded end to end.

This is the only module that imports openai, and it does so when a ChatClient is made, not at
import time: `import openai` costs most of a second, and passes without `--consolidate` (or a
dry run's checks) should not pay it.

The deadline. The openai client's timeout bounds each socket read, so a server that sends its
headers and then one byte a second keeps a request alive for ever. Each attempt therefore runs
in a daemon thread that the asking thread waits for at most llm.timeout_seconds (less when
the pass's budget ends sooner): a wall-clock bound that holds whatever the server does, on
every openai version, without re-implementing the HTTP. An attempt given up on is left to
end by itself (its reads still time out; the process never waits for it) on a client of its
own, which it closes; the next attempt gets a fresh one. Streaming with a deadline check
between chunks was the alternative: it cannot bound a server that goes silent mid-stream,
and it changes how replies and usage are read.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gitcurator.config import LlmSettings
from gitcurator.umbrella.model_errors import (
    BudgetSpent,
    LlmError,
    check_settings,
    connection_cause,
    endpoint_name,
    refuses_format_schema,
    refuses_json_schema,
    refuses_max_tokens,
    server_message,
    status_cause,
)
from gitcurator.umbrella.model_reply import (
    JSON_OBJECT,
    JSON_SCHEMA,
    Reply,
    messages,
    object_format,
    read_reply,
    schema_format,
    schema_in_words,
)
from gitcurator.umbrella.model_retries import (
    CONNECTION,
    STATUS,
    TIMEOUT,
    Failure,
    Tries,
    retry_after,
)

if TYPE_CHECKING:
    import openai

__all__ = ["ChatClient"]

OPENAI_API = "https://api.openai.com/v1"
# The openai client refuses to start without a key; local endpoints ignore it.
PLACEHOLDER_KEY = "not-needed"
REFUSED = "refused"  # what an attempt returns when the endpoint refuses the response format


class ChatClient:
    """Asks one model for JSON replies, retrying what is worth retrying; counts what it spends."""

    def __init__(
        self,
        settings: LlmSettings,
        env: Mapping[str, str],
        *,
        timeout: float = 120.0,
        retries: int = 3,
        backoff: float = 1.0,
        retry_after_cap: float = 60.0,
    ) -> None:
        check_settings(settings, env)
        self.settings = settings
        self.model: str = settings.model or ""
        self.timeout = timeout
        self.retries = max(1, retries)  # tries in all, the first included
        self.backoff = backoff
        self.retry_after_cap = retry_after_cap
        self.mode = JSON_SCHEMA  # becomes JSON_OBJECT for good once the endpoint refuses schemas
        self.schema_in_format = True  # json_object carries the schema until that is refused
        self.tokens_key = "max_tokens"  # max_completion_tokens once the endpoint asks for it
        self.asks = 0  # ask() calls made, whether they ended in a reply or an LlmError
        self.http_requests = 0  # HTTP attempts: retries and the json_object fallback included
        self.prompt_tokens = 0  # totals over the replies received
        self.completion_tokens = 0
        self._where = endpoint_name(settings)
        self._key = env.get(settings.api_key_env, "").strip() or PLACEHOLDER_KEY
        self._client = self._new_client()

    def _new_client(self) -> openai.OpenAI:
        import openai

        # base_url is given explicitly so that $OPENAI_BASE_URL cannot silently redirect a
        # config that says "the openai default".
        return openai.OpenAI(
            api_key=self._key,
            base_url=self.settings.base_url or OPENAI_API,
            timeout=self.timeout,
            max_retries=0,
        )

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(
        self,
        system: str,
        user: str,
        schema: Mapping[str, Any],
        schema_name: str,
        *,
        max_tokens: int | None = None,
        within: float | None = None,
    ) -> Reply:
        """Ask for one JSON object matching `schema`; the content comes back unparsed.

        `max_tokens` caps the reply when llm.max_tokens does not; `within` bounds the whole
        ask, retries included, in seconds (BudgetSpent when it runs out)."""
        started = time.monotonic()
        self.asks += 1
        deadline = None if within is None else started + within
        cap = self.settings.max_tokens or max_tokens
        body = None
        if self.mode == JSON_SCHEMA:
            sent = messages(system, user)
            body = self._send(sent, schema_format(schema, schema_name), cap, deadline)
            if body is None:  # refused: no structured outputs here
                self.mode = JSON_OBJECT
        spelled = messages(schema_in_words(system, schema), user)
        if body is None and self.schema_in_format:
            body = self._send(spelled, object_format(schema), cap, deadline)
            if body is None:  # a strict json_object: the schema stays in words only
                self.schema_in_format = False
        if body is None:
            body = self._send(spelled, object_format(None), cap, deadline)
        if body is None:
            raise LlmError(self._failed("refused the json_object response format"))
        content, prompt_tokens, completion_tokens = read_reply(body, self._failed_prefix())
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        return Reply(
            content, prompt_tokens, completion_tokens, self.mode, time.monotonic() - started
        )

    # -- one request, retried ----------------------------------------------------------------

    def _send(
        self,
        sent: list[dict[str, str]],
        response_format: dict[str, Any],
        cap: int | None,
        deadline: float | None,
    ) -> str | None:
        """The reply's body text; None when the endpoint refuses `response_format`."""
        tries = Tries(self.retries, self.backoff, self.retry_after_cap)
        while True:
            bound = self.timeout
            if deadline is not None:
                bound = min(bound, deadline - time.monotonic())
                if bound <= 0:
                    raise BudgetSpent(self._failed("llm.budget_seconds ran out"))
            self.http_requests += 1
            outcome = self._attempt(sent, response_format, cap, bound)
            if outcome is None or isinstance(outcome, str):
                return outcome
            wait = tries.wait_after(outcome)
            if wait is None:
                raise LlmError(f"{self._failed(tries.summary())}; {outcome.hint}")
            if deadline is not None and time.monotonic() + wait >= deadline:
                raise BudgetSpent(self._failed(f"{tries.summary()}; llm.budget_seconds ran out"))
            time.sleep(wait)

    def _attempt(
        self,
        sent: list[dict[str, str]],
        response_format: dict[str, Any],
        cap: int | None,
        bound: float,
    ) -> str | Failure | None:
        """One HTTP request, given at most `bound` seconds of wall time."""
        import openai

        client = self._client
        done = threading.Event()
        abandoned = threading.Event()
        box: dict[str, Any] = {}

        # Typed loosely on purpose: openai's overloads are per version; these keys are in all.
        args: dict[str, Any] = {
            "model": self.model,
            "messages": sent,
            "response_format": response_format,
            "temperature": 0,
            # extra_body keeps it out of the request unless set, on any openai version.
            "extra_body": {self.tokens_key: cap} if cap else None,
        }

        def request() -> None:
            try:
                box["raw"] = client.chat.completions.with_raw_response.create(**args).text
            except BaseException as exc:  # handed to the asking thread, which words it
                box["error"] = exc
            finally:
                done.set()
                if abandoned.is_set():
                    client.close()

        threading.Thread(target=request, name="gitcurator-llm", daemon=True).start()
        if not done.wait(bound):
            abandoned.set()
            self._client = self._new_client()  # the abandoned one is closed by its thread
            if done.is_set():  # it finished just now: it may or may not have closed it
                client.close()
            return Failure(TIMEOUT, f"timed out after {round(bound, 2):g} s")
        error = box.get("error")
        if error is None:
            return str(box["raw"])
        if isinstance(error, openai.APITimeoutError):
            return Failure(TIMEOUT, f"timed out after {self.timeout:g} s")
        if isinstance(error, openai.APIConnectionError):
            cause, hint = connection_cause(error)
            return Failure(CONNECTION, cause, hint)
        if isinstance(error, openai.APIStatusError):
            return self._status_failure(error, response_format, cap)
        raise error

    def _status_failure(
        self, exc: openai.APIStatusError, response_format: dict[str, Any], cap: int | None
    ) -> Failure | None:
        status, words, body = exc.status_code, exc.message, exc.body
        # First: its words ("unsupported parameter") would also read as a format refusal.
        if cap and self.tokens_key == "max_tokens" and refuses_max_tokens(status, words, body):
            self.tokens_key = "max_completion_tokens"
            return Failure(STATUS, f"HTTP {status}", retry_after=0.0)  # asked again at once
        if response_format["type"] == JSON_SCHEMA and refuses_json_schema(status, words, body):
            return None
        if "schema" in response_format and refuses_format_schema(status, words, body):
            return None
        detail = server_message(body)
        if status != 408 and status != 429 and status < 500:
            raise LlmError(self._failed(status_cause(status, detail, self.settings.api_key_env)))
        cause = f"HTTP {status}" + (" (rate limited)" if status == 429 else "")
        return Failure(STATUS, cause, "try again later", detail, retry_after(exc.response.headers))

    def _failed_prefix(self) -> str:
        return f"asking {self.model} via {self._where} failed"

    def _failed(self, cause: str) -> str:
        return f"{self._failed_prefix()}: {cause}"

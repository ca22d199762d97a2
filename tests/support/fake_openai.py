"""A real HTTP server that speaks just enough of the OpenAI chat API to test against.

It listens on 127.0.0.1 (a free port) in a thread and answers POST /v1/chat/completions (and
/chat/completions) with scripted responses, recording every request. Tests get it from the
`fake_openai` fixture in test_llm.py (or their own); benches use it as a context manager::

    from support.fake_openai import FakeOpenAI, Response

    with FakeOpenAI([Response.error(503), '{"actions": []}']) as server:
        settings = LlmSettings(base_url=server.base_url, model="fake-model")
        ...
        assert server.requests[-1]["response_format"]["type"] == "json_schema"

A script entry is a Response or a plain string (the assistant's content). When the script runs
out, `handler(request_json)` decides, if set; otherwise the server answers 500 and says the
script ran out, so a test that makes one request too many fails loudly.

Standard library only, and no pytest: bench scripts import it too.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeOpenAI", "Handler", "Response", "closed_port_url", "count_tokens"]

CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")


@dataclass(frozen=True, slots=True)
class Response:
    """What the server does with one request; build one with the class methods."""

    content: str | None = "{}"
    status: int = 200
    # Raw body to send instead of a chat completion (an error document, or garbage).
    body: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (longer than the client's timeout)
    drop: bool = False  # close the connection without answering
    usage: bool = True  # include the usage block

    @classmethod
    def reply(cls, content: str | None, *, usage: bool = True, delay: float = 0.0) -> Response:
        """A 200 chat completion whose assistant message is `content` (None → null)."""
        return cls(content=content, usage=usage, delay=delay)

    @classmethod
    def error(
        cls, status: int, message: str = "", *, retry_after: float | str | None = None
    ) -> Response:
        """An HTTP error with an OpenAI-style error document; 429s may carry Retry-After."""
        text = message or f"fake error {status}"
        doc = {"error": {"message": text, "type": "fake", "code": None}}
        headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
        return cls(status=status, body=json.dumps(doc).encode(), headers=headers)

    @classmethod
    def refuse_json_schema(cls, status: int = 400) -> Response:
        """What an endpoint without structured outputs says to response_format json_schema."""
        return cls.error(status, "response_format type 'json_schema' is not supported")

    @classmethod
    def slow(cls, seconds: float, content: str = "{}") -> Response:
        """A reply that arrives only after `seconds` (to make the client time out)."""
        return cls(content=content, delay=seconds)

    @classmethod
    def malformed(cls, body: bytes = b"<html>502 Bad Gateway</html>") -> Response:
        """A 200 whose body is not JSON, labelled as JSON as a broken proxy would."""
        return cls(body=body, headers={"Content-Type": "application/json"})

    @classmethod
    def dropped(cls) -> Response:
        """Close the connection without sending anything."""
        return cls(drop=True)


Handler = Callable[[dict[str, Any]], "Response | str"]


def count_tokens(text: str) -> int:
    """The fake's token count: about four characters a token, as OpenAI's rule of thumb says."""
    return len(text) // 4


def _message_text(request: Mapping[str, Any]) -> str:
    parts = []
    for message in request.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):  # content parts: [{"type": "text", "text": ...}]
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "".join(parts)


class FakeOpenAI:
    """The server; `start()`/`stop()` or use it as a context manager."""

    def __init__(
        self,
        script: Iterable[Response | str] = (),
        *,
        handler: Handler | None = None,
        model: str | None = None,
    ) -> None:
        self._script: deque[Response | str] = deque(script)
        self.handler = handler
        self.model = model  # reported in replies; None echoes the request's model
        self.requests: list[dict[str, Any]] = []  # every request's JSON body, in order
        self.headers: list[dict[str, str]] = []  # its headers, lower-cased names
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------------

    def script(self, *responses: Response | str) -> FakeOpenAI:
        """Queue responses for the next requests, in order."""
        with self._lock:
            self._script.extend(responses)
        return self

    @property
    def count(self) -> int:
        """How many chat requests arrived (answered or not)."""
        with self._lock:
            return len(self.requests)

    @property
    def pending(self) -> int:
        """Scripted responses not used yet."""
        with self._lock:
            return len(self._script)

    def _next(self, request: dict[str, Any], headers: dict[str, str], path: str) -> Response:
        with self._lock:  # one section, so requests, headers and paths stay aligned
            self.requests.append(request)
            self.headers.append(headers)
            self.paths.append(path)
            scripted = self._script.popleft() if self._script else None
        if scripted is None and self.handler is not None:
            scripted = self.handler(request)
        if scripted is None:
            return Response.error(500, "fake_openai: the script ran out of responses")
        return Response.reply(scripted) if isinstance(scripted, str) else scripted

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the fake OpenAI server is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """What to put in llm.base_url, e.g. http://127.0.0.1:54321/v1."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeOpenAI:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_class(self))
        server.daemon_threads = True
        self._server = server
        self._stopping.clear()
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping on a delay
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- answering ---------------------------------------------------------------------------

    def _completion(self, request: Mapping[str, Any], response: Response) -> dict[str, Any]:
        content = response.content
        doc: dict[str, Any] = {
            "id": f"chatcmpl-fake-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model or request.get("model") or "fake-model",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
        }
        if response.usage:
            prompt = count_tokens(_message_text(request))
            completion = count_tokens(content or "")
            doc["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        return doc


def _handler_class(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            path = self.path.split("?", 1)[0]
            if path not in CHAT_PATHS:
                self._send(404, {"error": {"message": f"no route {path}", "type": "fake"}})
                return
            try:
                request = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, {"error": {"message": "body is not JSON", "type": "fake"}})
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            response = fake._next(request, headers, path)
            if response.delay and fake._stopping.wait(response.delay):
                self.close_connection = True
                return
            if response.drop:
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if response.body is not None:
                self._send(response.status, response.body, response.headers)
            else:
                self._send(response.status, fake._completion(request, response), response.headers)

        def _send(
            self,
            status: int,
            body: bytes | dict[str, Any],
            headers: Mapping[str, str] | None = None,
        ) -> None:
            headers = headers or {}
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            try:
                self.send_response(status)
                if not any(k.lower() == "content-type" for k in headers):
                    self.send_header("Content-Type", "application/json")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client gave up (timed out) first

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

    return _Handler


def closed_port_url() -> str:
    """A base_url where nothing listens, for connection-refused tests."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"

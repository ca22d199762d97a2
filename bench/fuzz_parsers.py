"""Coverage-guided fuzzing (atheris, libFuzzer) of the five parsers that read outside input.

Usage: python bench/fuzz_parsers.py [--runs N] [--targets a,b] [--jobs J] [--max-len BYTES]

Targets, each fed raw bytes by libFuzzer (seeded with valid documents and a dictionary):
  skill   a SKILL.md through `skills.check_skill.validate_skill` (lenient and strict) and
          `skill_name`: parse_skill_md, the frontmatter rules, FrontmatterSource, links, secrets
  config  `.gitcurator.yaml` text through `config.parse_config`
  journal a journal file through `telemetry.journal.read_events` (torn lines, parse_line), and
          every event read back written by `events.event_line` and read again, equal
  note    a note's blob through `telemetry.records.decode_record`; a record decoded is encoded
          by `ledger.encode_record` and decoded again, equal
  reply   a model reply through `curation.cluster_review.parse_answer`, and a reply that is a
          plan through `review_clusters` on a three-skill cluster (the proposal checks)

An exception other than the parser's documented one (ConfigError for config, none for the
others: they return findings, None, or a reason) is a crash: it is counted, its input saved
under the work folder, and fuzzing goes on. Each target runs `--runs` inputs (default 10^6) in
its own process; the report gives libFuzzer's executions, its final `cov:` (edges) and `ft:`
(features), the corpus it grew, the wall time, and the crashes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("skill", "config", "journal", "note", "reply")
CRASHES = "crashes.jsonl"

SEEDS: dict[str, list[bytes]] = {
    "skill": [
        b"---\nname: pdf-tools\ndescription: Use when a PDF needs its tables.\n---\n# PDF\n\n"
        b"Run `scripts/x.sh`; see [ref](references/a.md).\n",
        b"\xef\xbb\xbf---\r\nname: a\r\ndescription: >\r\n  folded\r\nmetadata:\r\n  hermes:\r\n"
        b"    tags: [x]\r\nallowed-tools: [Read, Write]\r\n---\r\nbody\r\n",
        b"---\nname: 'a'\nname: b\ncompatibility: 3\nlicense: [x]\nd: 2026-01-01\n---\n",
    ],
    "config": [
        b"curator:\n  interval_hours: 168\n  min_retention: 0.5\n  protect: [a, 'b*']\n"
        b"llm:\n  base_url: http://127.0.0.1:8080/v1\n  model: m\n  max_requests: 5\n",
        b"skills_dir: skills\ncurator:\n  stale_after_days: 1e3\n  archive_after_days: .inf\n",
        b"curator: &a\n  enabled: yes\nllm: *a\n",
    ],
    "journal": [
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"host-1","n":["pdf-tools"]}\n',
        b'{"v":1,"k":"view","t":"2026-01-01T00:00:00Z","h":"h","n":["a","b"],"s":"mcp",'
        b'"i":"e1"}\n{"v":1,"k":"us{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":[]}\n',
    ],
    "note": [
        b'{"version":1,"skill":"pdf-tools","origin":{"value":"agent","at":"2026-01-01T00:00:00Z"},'
        b'"pinned":{"value":true,"at":"2026-01-01T00:00:00Z"},"hosts":{"h":{"use_count":2,'
        b'"view_count":1,"last_used_at":"2026-01-02T00:00:00Z","last_viewed_at":null}},'
        b'"archived_at":"2026-02-01T00:00:00Z"}\n',
    ],
    "reply": [
        b'{"umbrellas":[{"name":"pdf-extraction","description":"Use for PDF extraction.",'
        b'"body":"## pdf-extract-forms\\n\\nRun `pdf_extract_forms --all`.","absorb":'
        b'["pdf-extract-forms","pdf-extract-images","pdf-extract-tables"],"demote":[],'
        b'"reason":"one task"}],"keep":[]}',
        b'{"umbrellas":[],"keep":[{"skill":"pdf-extract-forms","reason":"r"}]}',
        b'{"umbrellas":[{"name":"pdf-extract-forms","description":"d","body":"b","absorb":'
        b'["pdf-extract-images"],"demote":[{"skill":"pdf-extract-tables","to":'
        b'"references/t.md"}],"reason":""}],"keep":[]}',
    ],
}
DICTIONARY: dict[str, list[str]] = {
    "skill": [
        *("---", "name:", "description:", "metadata:", "allowed-tools:", "compatibility:"),
        *("license:", "hermes:", "&a", "*a", "<<:", "? ", "!!binary", "!!str", "\r\n", "\ufeff"),
        *("](", "`", "scripts/", "../", "2026-02-30", "~", ".nan", "|-", ">+"),
    ],
    "config": [
        *("curator:", "llm:", "skills_dir:", "interval_hours:", "min_retention:", ".nan"),
        *(
            ".inf",
            "-.inf",
            "1e3",
            "protect:",
            "max_requests:",
            "base_url:",
            "&a",
            "*a",
            "<<:",
            "? ",
        ),
        *("2026-02-30", "0x1f", "0o17", "1_000", "yes", "~", "!!float", "timeout_seconds:"),
    ],
    "journal": [
        *('{"v":1,', '"k":"use"', '"k":"view"', '"t":"2026-01-01T00:00:00Z"', '"h":"h"'),
        *('"n":[', '"s":"cli"', '"i":"', "\\u0000", "\\ud800", "\n", "]}", "NaN", "1e999"),
    ],
    "note": [
        *('"version":1', '"skill":"a"', '"hosts":{', '"use_count":', '"view_count":'),
        *(
            '"last_used_at":',
            '"sources":{',
            '"origin":',
            '"pinned":',
            '"lifecycle":',
            '"imported":',
        ),
        *('"archived_at":', '"absorbed_into":', '"2026-01-01T00:00:00Z"', "null", "true", "1e999"),
    ],
    "reply": [
        *('"umbrellas":[', '"keep":[', '"name":', '"description":', '"body":', '"absorb":['),
        *('"demote":[', '"reason":', '"skill":', '"to":"references/', '"pdf-extract-forms"'),
        *('"pdf-extract-images"', '"pdf-extract-tables"', '"pdf-extraction"', "](", "../"),
    ],
}


def main() -> None:
    """Fuzz every target in its own process and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000)
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--jobs", type=int, default=1, help="targets fuzzed at once")
    parser.add_argument("--max-len", type=int, default=4096)
    parser.add_argument("--keep", type=Path, help="keep corpora and crashes in this folder")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.child:
        _child(args.child, rest)
        return
    targets = [t for t in args.targets.split(",") if t]
    unknown = set(targets) - set(TARGETS)
    if unknown:
        parser.error(f"unknown targets {sorted(unknown)}; known: {', '.join(TARGETS)}")
    work = args.keep or Path(tempfile.mkdtemp(prefix="gitcurator-fuzz-"))
    try:
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            rows = list(pool.map(lambda t: _fuzz(t, work / t, args.runs, args.max_len), targets))
        _print(rows, args.runs)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    if any(r["crashes"] or r["executions"] < args.runs for r in rows):
        sys.exit(1)


def _fuzz(target: str, folder: Path, runs: int, max_len: int) -> dict[str, Any]:
    corpus, seeds = folder / "corpus", folder / "seeds"
    for path in (corpus, seeds):
        path.mkdir(parents=True, exist_ok=True)
    for k, seed in enumerate(SEEDS[target]):
        (seeds / f"seed-{k}").write_bytes(seed)
    dictionary = folder / "tokens.dict"
    dictionary.write_text("".join(f'"{_dict_token(token)}"\n' for token in DICTIONARY[target]))
    cmd = [sys.executable, __file__, "--child", target]
    cmd += [f"-runs={runs}", f"-max_len={max_len}", "-timeout=60", "-print_final_stats=1"]
    cmd += [f"-dict={dictionary}", str(corpus), str(seeds)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FUZZ_WORK": str(folder)}
    started = time.monotonic()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace")
    seconds = time.monotonic() - started
    (folder / "libfuzzer.log").write_text(done.stderr)
    crashes = folder / CRASHES
    found = crashes.read_text().splitlines() if crashes.exists() else []
    return {
        "target": target,
        **_figures(done.stderr),
        "exit": done.returncode,
        "seconds": round(seconds, 1),
        "crashes": len(found),
        "kinds": sorted({json.loads(line)["error"] for line in found}),
        "corpus": len(list(corpus.iterdir())),
        "tail": done.stderr.strip().splitlines()[-3:] if done.returncode else [],
    }


def _dict_token(token: str) -> str:
    """A token in libFuzzer's dictionary syntax: printable ASCII, else \\xNN per byte."""
    return "".join(
        chr(b) if 32 <= b < 127 and chr(b) not in '\\"' else f"\\x{b:02x}"
        for b in token.encode("utf-8")
    )


def _figures(log: str) -> dict[str, int]:
    """libFuzzer's last status line (`#N ... cov: C ft: F`) and its final run count."""
    executions = cov = ft = 0
    for line in log.splitlines():
        status = re.match(r"#(\d+)\s.*?cov: (\d+) ft: (\d+)", line)
        if status:
            executions, cov, ft = (int(g) for g in status.groups())
        done = re.match(r"Done (\d+) runs", line)
        if done:
            executions = int(done.group(1))
        stat = re.match(r"stat::number_of_executed_units:\s+(\d+)", line)
        if stat:
            executions = int(stat.group(1))
    return {"executions": executions, "cov": cov, "ft": ft}


def _print(rows: list[dict[str, Any]], runs: int) -> None:
    print(f"atheris {_atheris_version()}, libFuzzer, {runs:,} inputs asked per target")
    print(
        f"{'target':<8} {'executions':>11} {'crashes':>7} {'cov':>6} {'ft':>7} {'corpus':>6} "
        f"{'seconds':>8}"
    )
    for r in rows:
        print(
            f"{r['target']:<8} {r['executions']:>11,} {r['crashes']:>7} {r['cov']:>6} "
            f"{r['ft']:>7} {r['corpus']:>6} {r['seconds']:>8}"
        )
        if r["kinds"]:
            print(f"         crash kinds: {'; '.join(r['kinds'])}")
        if r["exit"]:
            print(f"         libFuzzer exited {r['exit']}: " + " | ".join(r["tail"]))


def _atheris_version() -> str:
    from importlib.metadata import version

    return version("atheris")


# -- the child: one target under libFuzzer ----------------------------------------------------


def _child(target: str, libfuzzer_args: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=["gitcurator"]):
        one_input = _target(target)
    crashes = Path(os.environ["FUZZ_WORK"]) / CRASHES

    def test_one_input(data: bytes) -> None:
        try:
            one_input(data)
        except Exception as exc:  # the finding itself: recorded, and fuzzing goes on
            error = f"{type(exc).__name__}: {str(exc)[:200]}"
            with crashes.open("a") as f:
                f.write(json.dumps({"error": error, "input": data.hex()}) + "\n")

    atheris.Setup([sys.argv[0], *libfuzzer_args], test_one_input)
    atheris.Fuzz()


def _target(target: str) -> Callable[[bytes], None]:
    return {
        "skill": _skill_target,
        "config": _config_target,
        "journal": _journal_target,
        "note": _note_target,
        "reply": _reply_target,
    }[target]()


def _skill_target() -> Callable[[bytes], None]:
    from gitcurator.skills.check_skill import skill_name, validate_skill
    from gitcurator.skills.files import FileEntry, SkillFiles

    def one(data: bytes) -> None:
        entry = FileEntry("pdf-tools/SKILL.md", len(data), data=data)
        skill = SkillFiles("pdf-tools", "pdf-tools/SKILL.md", (entry,))
        validate_skill(skill, strict=bool(len(data) & 1))
        skill_name(skill)

    return one


def _config_target() -> Callable[[bytes], None]:
    from gitcurator.config import parse_config
    from gitcurator.errors import ConfigError

    def one(data: bytes) -> None:
        with contextlib.suppress(ConfigError):
            parse_config(data.decode("utf-8", "replace"))

    return one


def _journal_target() -> Callable[[bytes], None]:
    from gitcurator.telemetry.events import event_line, parse_line
    from gitcurator.telemetry.journal import read_events

    path = Path(os.environ["FUZZ_WORK"]) / "journal.jsonl"

    def one(data: bytes) -> None:
        path.write_bytes(data)
        events, _problems = read_events(path)
        for e in events:
            line = event_line(e.kind, list(e.names), e.at, e.host, e.source, e.event_id)
            if parse_line(line.rstrip(b"\n")) != e:
                raise AssertionError(f"journal line does not read back: {line!r}")

    return one


def _note_target() -> Callable[[bytes], None]:
    from gitcurator.telemetry.ledger import encode_record
    from gitcurator.telemetry.records import decode_record

    def one(data: bytes) -> None:
        record = decode_record("pdf-tools", data)
        if not isinstance(record, str):
            again = decode_record(record.skill, encode_record(record))
            if again != record:
                raise AssertionError(f"record does not read back: {again!r}")

    return one


def _reply_target() -> Callable[[bytes], None]:
    from datetime import UTC, datetime

    from gitcurator.curation.cluster_review import parse_answer, review_clusters

    rows, entries, read, config = _cluster_library()
    now = datetime(2026, 3, 1, tzinfo=UTC)

    def one(data: bytes) -> None:
        text = data.decode("utf-8", "replace")
        if isinstance(parse_answer(text), dict):
            review_clusters(rows, entries, read, config, now, _OneReply(text, config))

    return one


def _cluster_library() -> tuple[Any, Any, Any, Any]:
    """Three agent-made PDF siblings, old enough and used, so they form one eligible cluster."""
    import hashlib

    from gitcurator.config import Config, CuratorPolicy
    from gitcurator.lifecycle.inventory import SkillRow
    from gitcurator.store import ObjectID

    files: dict[str, bytes] = {}
    rows = []
    for name in ("pdf-extract-forms", "pdf-extract-images", "pdf-extract-tables"):
        body = f"# {name}\n\nRun `{name.replace('-', '_')} --all` and check {name}.\n"
        text = f"---\nname: {name}\ndescription: Use when a task needs {name}.\n---\n{body}"
        files[f"{name}/SKILL.md"] = text.encode()
        files[f"{name}/references/notes.md"] = f"Notes on {name}.\n".encode()
        rows.append(
            SkillRow(
                name=name,
                path=name,
                state="active",
                origin="agent",
                pinned=False,
                curated=True,
                protected=False,
                use_count=3,
                view_count=0,
                patch_count=0,
                last_used_at="2026-02-25T00:00:00Z",
                last_viewed_at=None,
                last_patched_at=None,
                last_activity_at="2026-02-25T00:00:00Z",
                created_at="2025-10-01T00:00:00Z",
                archived_at=None,
                absorbed_into=None,
            )
        )
    blobs = {hashlib.sha1(d).hexdigest().encode(): d for d in files.values()}
    entries = {
        p: (ObjectID(hashlib.sha1(d).hexdigest().encode()), 0o100644) for p, d in files.items()
    }
    config = Config(curator=CuratorPolicy(min_age_days=7))
    return rows, entries, blobs.__getitem__, config


class _OneReply:
    """The model as cluster_review sees it, answering every ask with the fuzzed reply."""

    def __init__(self, content: str, config: Any) -> None:
        from gitcurator.umbrella.model_reply import JSON_SCHEMA

        self.settings = config.llm
        self.model = "fuzzed"
        self.mode = JSON_SCHEMA
        self.asks = self.http_requests = self.prompt_tokens = self.completion_tokens = 0
        self.content = content

    def ask(self, system: str, user: str, schema: Mapping[str, Any], schema_name: str) -> Any:
        from gitcurator.umbrella.model_reply import Reply

        self.asks += 1
        return Reply(self.content, 0, 0, self.mode, 0.0)


if __name__ == "__main__":
    main()

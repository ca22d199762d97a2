"""`gitcurator ingest AGENT`: backfill usage and provenance from an agent's own logs.

Claude Code transcripts and Codex session rollouts are streamed from where the last ingest
stopped; Hermes' .usage.json is read again and only what grew since the last ingest (a
per-clone baseline) is recorded. Every event carries the agent's id, so a re-run, or a hook
that already saw the event, never counts twice. The events are folded into the notes at once.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gitcurator.agents import claude_code, codex, hermes, status
from gitcurator.agents.delivery import Delivered, Target, deliver
from gitcurator.agents.events import AGENTS, AgentEvent
from gitcurator.agents.logs import FOLDER, Cursors, complete_lines
from gitcurator.agents.paths import Library
from gitcurator.errors import CuratorError, NotARepository, UsageError
from gitcurator.output import Result
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.render import plural
from gitcurator.statefiles import read_json, write_json
from gitcurator.telemetry import recording
from gitcurator.timeutil import format_time, parse_time

_BATCH = 20_000  # events delivered at once: memory stays flat however long the logs are
_FOLD_EVERY = 50_000  # journal events folded into the notes while a long backfill goes on
BASELINE = "hermes-baseline.json"


@dataclass(slots=True)
class Tally:
    """What an ingest read and recorded."""

    files: int = 0
    events: int = 0
    recorded: int = 0
    dropped: int = 0
    unknown: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    last_at: str | None = None
    last: str = ""

    def add(self, done: Delivered) -> None:
        if done.last_at is not None and (self.last_at is None or done.last_at >= self.last_at):
            self.last_at, self.last = done.last_at, done.last
        self.recorded += done.recorded
        self.dropped += done.dropped
        for name in done.unknown:
            self.unknown[name] = self.unknown.get(name, 0) + 1


def ingest(
    start: Path,
    agent: str,
    since: str | None,
    paths: Iterable[str],
    progress: Progress = NO_PROGRESS,
) -> Result:
    """Read the agent's logs (or PATHs), record what they hold, fold it into the notes;
    `progress` hears how many log files are read."""
    if agent not in AGENTS:
        raise UsageError(f"no ingest for {agent!r}; choose one of {', '.join(AGENTS)}")
    cutoff = format_time(parse_time(since, "--since")) if since else None
    try:
        target = Target.find(start)
    except FileNotFoundError:
        raise NotARepository(
            f"{start} is not inside a skills repository; run `gitcurator connect {agent}` "
            f"or `gitcurator init` first"
        ) from None
    library = Library(target.root)
    recording.rebuild_names(target.root, target.state, target.head)  # once, before the batches
    tally = Tally()
    given = [Path(p).expanduser() for p in paths]
    if agent == "hermes":
        _ingest_hermes(target, given, cutoff, tally)
    else:
        _ingest_logs(target, library, agent, given, cutoff, tally, progress)
    unknown = [n for n, count in tally.unknown.items() for _ in range(count)]
    if tally.last or unknown:
        status.note_delivery(target.state, agent, tally.last_at or "", tally.last, unknown)
    flushed = _flush(target.root)
    return _result(agent, tally, flushed)


def _ingest_logs(
    target: Target,
    library: Library,
    agent: str,
    given: list[Path],
    cutoff: str | None,
    tally: Tally,
    progress: Progress,
) -> None:
    logs = _logs_of(agent, given)
    cursors = Cursors(target.state, agent)
    pending = 0  # events in the journal since the last fold
    saved = time.monotonic()
    for log in counted(logs, f"reading {agent} logs", progress):
        start = cursors.start(log, cutoff)
        reached = [start]  # the end of the last whole line read, moved by _read
        batch: list[AgentEvent] = []
        for event in _read(agent, log, reached, library, tally):
            if cutoff is None or (event.at or "9") >= cutoff:
                batch.append(event)
            if len(batch) >= _BATCH:
                pending += _deliver(target, agent, batch, tally)
                batch = []
        pending += _deliver(target, agent, batch, tally)
        tally.files += 1
        if reached[0] != start:
            cursors.done(log, reached[0], cutoff)
            # Now and then, not per file (rewriting the offsets of 1,000 logs 1,000 times is
            # quadratic): an interrupted backfill re-reads a little, and ids dedupe it.
            if time.monotonic() - saved > 2:
                cursors.save()
                saved = time.monotonic()
        if pending >= _FOLD_EVERY:
            _flush(target.root)  # memory stays flat: a flush reads what is pending whole
            pending = 0
    cursors.save()


def _deliver(target: Target, agent: str, batch: list[AgentEvent], tally: Tally) -> int:
    done = deliver(target, agent, batch, note=False)
    tally.add(done)
    tally.events += len(batch)
    return done.recorded


def _logs_of(agent: str, given: list[Path]) -> list[Path]:
    if not given:
        return (
            claude_code.transcripts(claude_code.home() / "projects")
            if agent == "claude-code"
            else codex.rollouts(codex.home())
        )
    found: list[Path] = []
    for path in given:
        if path.is_dir():
            found += sorted(path.rglob("*.jsonl"))
        elif path.is_file():
            found.append(path)
        else:
            raise UsageError(f"{path} does not exist; give transcript files or folders")
    return found


def _read(
    agent: str,
    log: Path,
    reached: list[int],
    library: Library,
    tally: Tally,
) -> Iterator[AgentEvent]:
    session = log.stem.removeprefix("rollout-")
    try:
        for end, raw in complete_lines(log, reached[0]):
            reached[0] = end
            if agent == "codex" and b'"session_meta"' in raw[:200]:
                line = claude_code.parse_line(raw)
                session = (codex.session_of(line) if line else None) or session
                continue
            may = claude_code.may_hold_events if agent == "claude-code" else codex.may_hold_events
            if not may(raw):
                continue
            line = claude_code.parse_line(raw)
            if line is None:
                continue  # not JSON: a damaged line, or one of a format we do not know
            if agent == "claude-code":
                events = claude_code.transcript_events(line, library)
            else:
                events = codex.rollout_events(line, session, library)
            yield from events
    except OSError as exc:
        tally.problems.append(f"{log}: cannot be read ({exc.strerror}); skipped")


def _ingest_hermes(target: Target, given: list[Path], cutoff: str | None, tally: Tally) -> None:
    if len(given) > 1:
        raise UsageError("give at most one Hermes skills folder (the one holding .usage.json)")
    skills = given[0] if given else _hermes_skills(target.root)
    usage_file = skills / hermes.USAGE_FILE
    if not usage_file.is_file():
        raise CuratorError(
            f"{usage_file} not found; give the Hermes skills folder that holds it as PATH"
        )
    path = target.state / FOLDER / BASELINE
    found = read_json(path)
    baseline = found if isinstance(found, dict) else None
    if baseline is None:
        baseline = _imported_baseline(target.root)
    events, new, problems = hermes.growth(hermes.read_usage(skills), baseline)
    tally.problems += problems
    tally.files = 1
    events = [e for e in events if cutoff is None or (e.at or "9") >= cutoff]
    for i in range(0, len(events), _BATCH):
        tally.add(deliver(target, hermes.AGENT, events[i : i + _BATCH], note=False))
    tally.events = len(events)
    write_json(path, new)  # after the events: a crash between re-reads them, ids dedupe


def _hermes_skills(root: Path) -> Path:
    return root if (root / hermes.USAGE_FILE).is_file() else hermes.home() / "skills"


def _imported_baseline(root: Path) -> dict[str, object]:
    """What `import hermes` already brought (its host's counters), so the first ingest does
    not count it again."""
    from gitcurator.importers.hermes.usage_records import HOST
    from gitcurator.library import open_repo
    from gitcurator.telemetry import ledger

    with open_repo(root) as repo:
        records = ledger.load(repo.store).records
    usage = hermes.read_usage(_hermes_skills(root))
    baseline: dict[str, object] = {}
    for key, entry in usage.items():
        record = records.get(hermes.skill_of_key(key))
        counters = record.hosts.get(HOST) if record else None
        if counters is None or not isinstance(entry, dict):
            continue
        patches = record.imported.patch_count if record and record.imported else 0
        baseline[key] = {
            "epoch": str(entry.get("created_at") or ""),
            "use_count": counters.use_count,
            "view_count": counters.view_count,
            "patch_count": patches or 0,
        }
    return baseline


def _flush(root: Path) -> object:
    from gitcurator.library import open_repo
    from gitcurator.telemetry import ledger

    with open_repo(root) as repo:
        return ledger.flush(repo.store)


def _result(agent: str, tally: Tally, flushed: object) -> Result:
    from gitcurator.telemetry.ledger import FlushResult

    notes = list(tally.problems)
    if isinstance(flushed, FlushResult):
        notes += [f"gitcurator: warning: {w}" for w in flushed.warnings]
    unknown = sum(tally.unknown.values())
    what = "file" if agent == "hermes" else "log"
    text = (
        f"{agent}: {plural(tally.events, 'event')} read from {plural(tally.files, what)}, "
        f"{tally.recorded} recorded"
        + (f", {unknown} for skills this library lacks (see `connect --list`)" if unknown else "")
        + "; already counted events count once"
    )
    doc = {
        "agent": agent,
        "files": tally.files,
        "events": tally.events,
        "recorded": tally.recorded,
        "unknown": dict(sorted(tally.unknown.items())),
        "problems": tally.problems,
    }
    return Result(text=text, doc=doc, notes=tuple(notes))

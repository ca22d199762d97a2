"""`run --consolidate` against a model that never finishes answering: the pass ends in bounded
time, says why, keeps its lifecycle work and loses nothing (real processes, a real server)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from support.repos import git, run_cli, run_process, write_skill
from support.slow_servers import DripServer

EPOCH = "2026-01-01T00:00:00Z"
NOW = "2026-03-01T00:00:00Z"
# Each family shares its wording, which is what makes siblings (a shared name alone does not).
FAMILIES = {
    "alpha-dial": "Turn the brass alpha dial, read its angle and log the calibration drift.",
    "bravo-knob": "Twist the bravo volume knob, measure the output level and record the gain.",
}
NAMES = [f"{family}-{i}" for family in FAMILIES for i in (1, 2)]


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two clusters of agent-made siblings, old enough for the model to be asked about."""
    root = tmp_path / "skills"
    for name in NAMES:
        write_skill(root, name, description=f"Use when asked to {FAMILIES[name[:-2]].lower()}")
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, EPOCH)
    assert run_cli("init", str(root), "-q").code == 0
    assert run_cli("track", *NAMES, "--origin", "agent", "-C", str(root)).code == 0
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var)
    return root


def _configure(repo: Path, base_url: str, **llm: object) -> None:
    config = repo / ".gitcurator.yaml"
    text = config.read_text().split("llm:")[0] + "llm:\n"
    settings = {"base_url": base_url, "model": "slow-model", **llm}
    text += "".join(f"  {k}: {json.dumps(v)}\n" for k, v in settings.items())
    config.write_text(text)
    git("commit", "-qam", "configure the model", cwd=repo)


def _pass(repo: Path) -> tuple[int, dict[str, object], str, float]:
    started = time.monotonic()
    done = run_process("run", "--consolidate", "--json", "--now", NOW, "-C", str(repo))
    took = time.monotonic() - started
    return done.returncode, json.loads(done.stdout) if done.stdout else {}, done.stderr, took


def test_a_dripping_model_is_cut_off_at_timeout_seconds(library: Path) -> None:
    with DripServer(interval=1.0) as server:
        _configure(library, server.base_url, timeout_seconds=2, retries=3)
        main = git("rev-parse", "main", cwd=library).stdout
        code, doc, err, took = _pass(library)
    # Per cluster: two tries of 2 s (a timeout is tried once more at most) and one backoff.
    assert took < 2 * (2 * 2 + 1.5) + 10, took
    assert code == 1, err
    assert "no cluster got a usable plan from slow-model" in err and "Traceback" not in err
    reasons = [r["reason"] for r in doc["refused"]]  # type: ignore[attr-defined]
    assert len(reasons) == 2 and all("timed out after 2 s (2 tries)" in r for r in reasons)
    llm = doc["llm"]
    assert isinstance(llm, dict)
    assert [c["status"] for c in llm["clusters"]] == ["failed", "failed"]
    assert llm["http_requests"] == 4
    # Nothing stored lost: main is where it was and the branch holds every skill.
    assert git("rev-parse", "main", cwd=library).stdout == main
    tree = git("ls-tree", "-r", "--name-only", str(doc["branch"]), cwd=library).stdout
    assert all(f"{n}/SKILL.md" in tree for n in NAMES)


def test_the_budget_ends_the_step_and_the_rest_is_not_reviewed(library: Path) -> None:
    with DripServer(interval=1.0) as server:
        _configure(library, server.base_url, timeout_seconds=60, budget_seconds=3)
        code, doc, err, took = _pass(library)
    assert took < 3 + 10, took
    assert code == 0, err  # like llm.max_requests: a bound reached, not a failure
    llm = doc["llm"]
    assert isinstance(llm, dict)
    assert llm["stopped"] == "llm.budget_seconds=3 spent"
    assert [c["status"] for c in llm["clusters"]] == ["not_reviewed", "not_reviewed"]
    report = git("show", f"{doc['branch']}:{doc['report']}", cwd=library).stdout
    assert "not reviewed (2, llm.budget_seconds=3 spent)" in report

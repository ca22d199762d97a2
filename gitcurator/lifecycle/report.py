"""What a pass says about itself: run.json and the commit messages (pure; REPORT.md is
rendered from run.json by report_markdown.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gitcurator.audit import trailers
from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.rules import ACTIVE, ARCHIVED, LifecyclePlan, Transition
from gitcurator.render import plural
from gitcurator.timeutil import format_time

RUNS_DIR = ".curator/runs"


def run_paths(run_id: str) -> tuple[str, str]:
    """Repo-relative paths of a run's REPORT.md and run.json."""
    return f"{RUNS_DIR}/{run_id}/REPORT.md", f"{RUNS_DIR}/{run_id}/run.json"


def run_doc(
    *,
    run_id: str,
    branch: str | None,
    base_commit: str,
    plan: LifecyclePlan,
    policy: CuratorPolicy,
    states_before: Mapping[str, str],
    archived_paths: Mapping[str, str],
    consolidations: Sequence[Mapping[str, Any]] = (),
    refused: Sequence[Mapping[str, str]] = (),
    llm: Mapping[str, Any] | None = None,
    catalogue: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The run.json document (schema: run-report), whole. `states_before` maps every skill to
    its state before the pass; `archived_paths` maps archived skills to their new folders;
    `consolidations`, `refused` and `llm` are the umbrella pass's parts (none without it);
    `catalogue` is what the skill catalogue costs before and after (CatalogueChange.as_doc)."""
    doc: dict[str, Any] = {
        "version": 1,
        "run_id": run_id,
        "branch": branch,
        "base_commit": base_commit,
        "now": format_time(plan.now),
        "thresholds": {
            "stale_after_days": policy.stale_after_days,
            "archive_after_days": policy.archive_after_days,
            "min_age_days": policy.min_age_days,
        },
        "counts": {
            "before": dict(sorted(Counter(states_before.values()).items())),
            "after": _counts_after(states_before, plan.transitions, consolidations),
        },
        "transitions": [_transition(t, archived_paths) for t in plan.transitions],
        "skipped": [{"skill": s.name, "reason": s.reason} for s in plan.skipped],
        "consolidations": [dict(c) for c in consolidations],
        "refused": [dict(r) for r in refused],
        "llm": None if llm is None else dict(llm),
    }
    if catalogue is not None:
        doc["catalogue"] = dict(catalogue)
    if plan.kept:  # only when references kept a skill: earlier reports stay as they were
        doc["kept"] = [k.to_json() for k in plan.kept]
    return doc


def _counts_after(
    states_before: Mapping[str, str],
    transitions: Sequence[Transition],
    consolidations: Sequence[Mapping[str, Any]],
) -> dict[str, int]:
    """States after the pass: the transitions made, then the umbrellas applied (folded skills
    are archived now, they moved to .archive/; each new umbrella is one more active skill)."""
    state = dict(states_before)
    state.update({t.name: t.after for t in transitions})
    after = Counter(state.values())
    for fold in consolidations:
        for name in [*fold["absorbed"], *fold["demoted"]]:
            after[state.get(name, ACTIVE)] -= 1
            after[ARCHIVED] += 1
        if not fold["existing"]:
            after[ACTIVE] += 1
    return {k: v for k, v in sorted(after.items()) if v > 0}


def _transition(t: Transition, archived_paths: Mapping[str, str]) -> dict[str, Any]:
    doc = {"skill": t.name, "path": t.path, "from": t.before, "to": t.after, "reason": t.reason}
    if t.name in archived_paths:
        doc["archived_path"] = archived_paths[t.name]
    return doc


def umbrella_message(
    run_id: str, umbrella: Any, cluster_key: str, rewrites: Sequence[str] = ()
) -> str:
    """One umbrella's commit: `curator: fold 3 skills into pdf-tools`, the why, the
    references to folded names it rewrote elsewhere, trailers."""
    folded = umbrella.folded
    subject = f"curator: fold {plural(len(folded), 'skill')} into {umbrella.name}"
    body = [
        f"{'Merged into the existing' if umbrella.existing else 'A new'} umbrella "
        f"{umbrella.folder} for the sibling cluster `{cluster_key}`.",
        "",
        f"Why: {umbrella.reason}",
        "",
    ]
    body += [
        f"- {s} ({'demoted to a reference' if s in umbrella.demoted else 'absorbed'}; "
        f"{umbrella.retention.get(s, 1.0):.0%} of its content kept)"
        for s in folded
    ]
    if rewrites:
        body += ["", f"References rewritten to {umbrella.name} ({len(rewrites)}):"]
        body += [f"- {r}" for r in rewrites]
    lines = [f"{trailers.RUN}: {run_id}", f"{trailers.UMBRELLA}: {umbrella.name}"]
    lines += [f"{trailers.ABSORBED}: {s} -> {umbrella.name}" for s in folded]
    return "\n".join([subject, "", *body, "", *lines]) + "\n"


def archive_message(run_id: str, archived: Sequence[Transition]) -> str:
    """The archive commit: a readable subject, each skill with its reason, trailers."""
    body = [f"- {t.name} ({t.path}): {t.reason}" for t in archived]
    lines = [f"{trailers.RUN}: {run_id}"] + [f"{trailers.ARCHIVED}: {t.name}" for t in archived]
    subject = f"curator: archive {plural(len(archived), 'unused skill')}"
    return "\n".join([subject, "", *body, "", *lines]) + "\n"


def report_message(run_id: str, doc: Mapping[str, Any]) -> str:
    """The report commit's message."""
    report_md, _ = run_paths(run_id)
    kinds = Counter(t["to"] for t in doc["transitions"])
    summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "no changes"
    folds = len(doc.get("consolidations") or [])
    umbrellas = f"; {plural(folds, 'umbrella')} applied" if doc.get("llm") else ""
    restores = len(doc.get("restores") or [])
    restored = f"; {plural(restores, 'wanted skill')} proposed back" if restores else ""
    return (
        f"curator: report for run {run_id}\n\n"
        f"Transitions: {summary}; {len(doc['skipped'])} skills left alone{umbrellas}{restored}.\n\n"
        f"{trailers.RUN}: {run_id}\n{trailers.REPORT}: {report_md}\n"
    )

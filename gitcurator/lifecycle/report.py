"""What a pass says about itself: run.json, REPORT.md and commit messages (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gitcurator.audit import trailers
from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.rules import ARCHIVED, PassPlan, Transition
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
    plan: PassPlan,
    policy: CuratorPolicy,
    states_before: Mapping[str, str],
    archived_paths: Mapping[str, str],
) -> dict[str, Any]:
    """The run.json document (schema: run-report). `states_before` maps every skill to its
    state before the pass; `archived_paths` maps archived skills to their new folders."""
    after = dict(states_before)
    for t in plan.transitions:
        after[t.name] = t.after
    return {
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
            "after": dict(sorted(Counter(after.values()).items())),
        },
        "transitions": [_transition(t, archived_paths) for t in plan.transitions],
        "skipped": [{"skill": s.name, "reason": s.reason} for s in plan.skipped],
        "consolidations": [],
        "refused": [],
        "llm": None,
    }


def _transition(t: Transition, archived_paths: Mapping[str, str]) -> dict[str, Any]:
    doc = {"skill": t.name, "path": t.path, "from": t.before, "to": t.after, "reason": t.reason}
    if t.name in archived_paths:
        doc["archived_path"] = archived_paths[t.name]
    return doc


def report_markdown(doc: Mapping[str, Any]) -> str:
    """REPORT.md: the same facts as run.json, for the person reviewing the branch."""
    lines = [
        f"# Curator pass {doc['run_id']}",
        "",
        f"- now: {doc['now']}",
        f"- base: `{doc['base_commit'][:12]}`"
        + (f", branch `{doc['branch']}`" if doc["branch"] else ""),
        f"- thresholds: stale after {doc['thresholds']['stale_after_days']:g} days, "
        f"archive after {doc['thresholds']['archive_after_days']:g} days",
        "",
        "## Counts",
        "",
        "| state | before | after |",
        "|---|---|---|",
    ]
    before, after = doc["counts"]["before"], doc["counts"]["after"]
    for state in sorted(set(before) | set(after)):
        lines.append(f"| {state} | {before.get(state, 0)} | {after.get(state, 0)} |")
    for title, wanted in (
        ("Archived", {ARCHIVED}),
        ("Marked stale", {"stale"}),
        ("Active again", {"active"}),
    ):
        rows = [t for t in doc["transitions"] if t["to"] in wanted]
        if rows:
            lines += ["", f"## {title} ({len(rows)})", ""]
            for t in rows:
                moved = f" → `{t['archived_path']}`" if "archived_path" in t else ""
                lines.append(f"- **{t['skill']}** (`{t['path']}`{moved}): {t['reason']}")
    if doc["skipped"]:
        lines += ["", f"## Left alone ({len(doc['skipped'])})", ""]
        by_reason: dict[str, list[str]] = {}
        for s in doc["skipped"]:
            by_reason.setdefault(s["reason"].split(":")[0], []).append(s["skill"])
        for reason, names in sorted(by_reason.items()):
            lines.append(f"- {reason}: {', '.join(sorted(names))}")
    lines += _llm_sections(doc)
    lines += ["", "Undo after merging: `gitcurator rollback " + doc["run_id"] + "`", ""]
    return "\n".join(lines)


def _llm_sections(doc: Mapping[str, Any]) -> list[str]:
    """The umbrella pass: what was folded, what was refused, what the model cost."""
    llm = doc.get("llm")
    lines: list[str] = []
    if doc.get("consolidations"):
        lines += ["", f"## Folded into umbrellas ({len(doc['consolidations'])})", ""]
        for c in doc["consolidations"]:
            folded = ", ".join(c["absorbed"] + [f"{d} (demoted)" for d in c.get("demoted", [])])
            kept = ", ".join(f"{s} {r:.0%}" for s, r in c.get("retention", {}).items())
            lines.append(f"- **{c['umbrella']}** ← {folded}: {c['reason']}")
            if kept:
                lines.append(f"  - content kept: {kept}")
    if doc.get("refused"):
        lines += ["", f"## Refused ({len(doc['refused'])})", ""]
        lines += [f"- {r['what']}: {r['reason']}" for r in doc["refused"]]
    if llm:
        lines += ["", "## Model", ""]
        lines.append(
            f"- {llm.get('model')} at {llm.get('endpoint')}: {plural(llm['requests'], 'request')}, "
            f"{llm['prompt_tokens']} prompt and {llm['completion_tokens']} completion tokens, "
            f"{llm['wall_seconds']:.1f} s"
        )
        for c in llm.get("clusters", []):
            if c["status"] == "not_reviewed":
                continue
            said = "; ".join(
                f"{u['name']} {'applied' if u['applied'] else 'refused'}"
                for u in c.get("umbrellas", [])
            )
            keeps = len((c.get("plan") or {}).get("keep", []))
            detail = said or c.get("error") or ("keeps every skill" if keeps else "no umbrella")
            lines.append(
                f"- cluster `{c['key']}` ({', '.join(c['members'])}): {c['status']}: {detail}"
            )
        waiting = [c for c in llm.get("clusters", []) if c["status"] == "not_reviewed"]
        if waiting:
            lines.append(
                f"- not reviewed ({len(waiting)}, {llm.get('stopped') or 'llm.max_requests'}): "
                + "; ".join(", ".join(c["members"]) for c in waiting)
            )
    return lines


def umbrella_message(run_id: str, umbrella: Any, cluster_key: str) -> str:
    """One umbrella's commit: `curator: fold 3 skills into pdf-tools`, the why, trailers."""
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
    return (
        f"curator: report for run {run_id}\n\n"
        f"Transitions: {summary}; {len(doc['skipped'])} skills left alone{umbrellas}.\n\n"
        f"{trailers.RUN}: {run_id}\n{trailers.REPORT}: {report_md}\n"
    )

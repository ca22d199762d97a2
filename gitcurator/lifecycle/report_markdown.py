"""REPORT.md: a pass's run.json for the person reviewing its branch (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gitcurator.lifecycle.catalogue_cost import change_text
from gitcurator.lifecycle.restore_proposals import restore_lines
from gitcurator.lifecycle.rules import ARCHIVED
from gitcurator.render import plural


def report_markdown(doc: Mapping[str, Any]) -> str:
    """REPORT.md: the same facts as run.json, for the person reviewing the branch."""
    lines = [f"# Curator pass {doc['run_id']}", ""]
    if doc.get("catalogue"):
        # The figure a pass is judged by: what every prompt pays for the list of skills.
        lines += [f"Skill catalogue: {change_text(doc['catalogue'])}", ""]
    lines += [
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
    if doc.get("kept"):
        lines += ["", f"## Kept: referred to ({len(doc['kept'])})", ""]
        lines += [f"- **{k['skill']}** (`{k['path']}`): {k['reason']}" for k in doc["kept"]]
    if doc["skipped"]:
        lines += ["", f"## Left alone ({len(doc['skipped'])})", ""]
        by_reason: dict[str, list[str]] = {}
        for s in doc["skipped"]:
            by_reason.setdefault(s["reason"].split(":")[0], []).append(s["skill"])
        for reason, names in sorted(by_reason.items()):
            lines.append(f"- {reason}: {', '.join(sorted(names))}")
    lines += restore_lines(doc.get("restores") or [])
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
            lines += _rewrites(c)
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


def _rewrites(fold: Mapping[str, Any]) -> list[str]:
    """A fold's references rewritten to its umbrella, and the reminder about the rest."""
    done = fold.get("references_rewritten") or []
    left = fold.get("references_left") or []
    if not done and not left:
        return []
    lines = [f"  - references rewritten to {fold['umbrella']} ({len(done)}):"] if done else []
    lines += [
        f"    - `{r['path']}:{r['line']}` ({r['kind']}): `{r['from']}` → `{r['to']}`"
        for r in done[:_SHOWN]
    ]
    if len(done) > _SHOWN:
        lines.append(f"    - and {len(done) - _SHOWN} more (run.json lists them all)")
    if left:  # executable or no text: rewriting would change its mode or its bytes
        shown = ", ".join(f"`{w}`" for w in left[:_SHOWN])
        lines.append(
            f"  - not rewritten (executable, a symlink or not text; edit by hand): {shown}"
        )
    lines.append("  - references outside this repository are not rewritten")
    return lines


_SHOWN = 50

"""A pass in words, for a person (pure): what `gitcurator run` shows, its error line, and the
lines its progress shows on a terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gitcurator.curation.pass_plan import PassPlan
from gitcurator.lifecycle.catalogue_cost import change_text
from gitcurator.render import plural
from gitcurator.timeutil import format_time

if TYPE_CHECKING:
    from gitcurator.umbrella.clusters import Cluster


def pass_text(plan: PassPlan, doc: Mapping[str, Any], branch: str | None, *, dry_run: bool) -> str:
    """What the pass did (or, in a dry run, would do); `doc` is its run.json."""
    lifecycle = plan.lifecycle
    folds, refused = doc["consolidations"], doc["refused"]
    stamp = format_time(lifecycle.now)
    restores = doc.get("restores") or []
    if not (lifecycle.transitions or folds or refused or restores):
        return _lines(
            f"nothing to do at {stamp}: no skill is due to change "
            f"({plural(len(lifecycle.skipped), 'skill')} left alone)",
            _catalogue_line(doc),
            *[f"  kept: {k.name} ({k.reason})" for k in lifecycle.kept],
            _llm_line(doc),
        )
    lines = [f"{'dry run: ' if dry_run else ''}pass {plan.run_id} at {stamp}"]
    lines += [f"  {t.before} -> {t.after}: {t.name} ({t.reason})" for t in lifecycle.transitions]
    lines += [f"  kept: {k.name} ({k.reason})" for k in lifecycle.kept]
    lines.append(
        f"  {plural(len(lifecycle.skipped), 'skill')} left alone (pinned, protected, not curated, "
        "too young); see the report"
    )
    for c in folds:
        folded = ", ".join(c["absorbed"] + [f"{d} (demoted)" for d in c["demoted"]])
        lines.append(f"  {'would fold' if dry_run else 'folded'} into {c['umbrella']}: {folded}")
    lines += [f"  refused: {r['what']}: {r['reason']}" for r in refused]
    lines += [
        f"  {'would propose back' if dry_run else 'proposed back'} {r['skill']} "
        f"({r['from']} -> {r['to']}, restored on merge): {r['reason']}"
        for r in restores
    ]
    lines.append(_catalogue_line(doc))
    lines.append(_llm_line(doc))
    if dry_run:
        lines.append("nothing was written")
    else:
        lines.append(
            f"branch {branch} holds the pass; review it with "
            f"`gitcurator review {plan.run_id}` (or `git log --stat "
            f"{plan.inputs.base_branch}..{branch}`), then "
            f"`gitcurator merge {plan.run_id}` (will change the default branch only then)"
        )
    return _lines(*lines)


def failure_note(plan: PassPlan, doc: Mapping[str, Any], branch: str | None) -> str | None:
    """The error line of a pass whose umbrella step got no usable plan (it exits 1)."""
    if not plan.llm_failed:
        return None
    llm = doc["llm"]
    return (
        f"gitcurator: error: no cluster got a usable plan from {llm['model']} at "
        f"{llm['endpoint']} ({plural(llm['requests'], 'request')}); "
        + ("see the report on the branch" if branch else "see the reasons above")
    )


def asking_line(k: int, total: int, cluster: Cluster, tokens: int) -> str:
    """Progress while the model is asked about cluster `k` of `total`."""
    return (
        f"cluster {k} of {total} ({cluster.key}, {len(cluster.members)} skills); "
        f"{tokens} tokens so far"
    )


def asked_line(total: int, seconds: float) -> str:
    """Progress once every cluster was asked about."""
    return f"{total} clusters in {seconds:.1f} s"


def _catalogue_line(doc: Mapping[str, Any]) -> str:
    catalogue = doc.get("catalogue")
    return f"  skill catalogue: {change_text(catalogue)}" if catalogue else ""


def _llm_line(doc: Mapping[str, Any]) -> str:
    llm = doc.get("llm")
    if not llm:
        return ""
    clusters = llm["clusters"]
    waiting = sum(1 for c in clusters if c["status"] == "not_reviewed")
    line = (
        f"  model {llm['model']}: {plural(len(clusters), 'cluster')}, "
        f"{plural(llm['requests'], 'request')}, {llm['prompt_tokens']} prompt + "
        f"{llm['completion_tokens']} completion tokens, {llm['wall_seconds']:.1f} s"
    )
    if waiting:
        line += f"; {waiting} not reviewed ({llm['stopped']})"
    return line


def _lines(*lines: str) -> str:
    # An empty line is a part that has nothing to say (no model asked), not a blank line.
    return "\n".join(line for line in lines if line)

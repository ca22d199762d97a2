"""What `gitcurator run` prints: the pass in words, or its JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gitcurator.output import emit_json
from gitcurator.render import plural
from gitcurator.timeutil import format_time

if TYPE_CHECKING:
    from gitcurator.curation.curator_pass import PassResult


def print_pass(result: PassResult, *, dry_run: bool, as_json: bool) -> None:
    """Print the pass; `--json` prints one JSON document and nothing else on stdout."""
    if as_json:
        emit_json({**result.to_json(), "dry_run": dry_run})
        return
    plan, doc = result.plan, result.doc
    folds, refused = doc["consolidations"], doc["refused"]
    if not (plan.transitions or folds or refused):
        print(
            f"nothing to do at {format_time(plan.now)}: no skill is due to change "
            f"({plural(len(plan.skipped), 'skill')} left alone)"
        )
        _llm_line(result)
        return
    verb = "would" if dry_run else "will"
    print(f"{'dry run: ' if dry_run else ''}pass {result.run_id} at {format_time(plan.now)}")
    for t in plan.transitions:
        print(f"  {t.before} -> {t.after}: {t.name} ({t.reason})")
    print(
        f"  {plural(len(plan.skipped), 'skill')} left alone (pinned, protected, not curated, "
        "too young); see the report"
    )
    for c in folds:
        folded = ", ".join(c["absorbed"] + [f"{d} (demoted)" for d in c["demoted"]])
        what = "would fold" if dry_run else "folded"
        print(f"  {what} into {c['umbrella']}: {folded}")
    for r in refused:
        print(f"  refused: {r['what']}: {r['reason']}")
    _llm_line(result)
    if dry_run:
        print("nothing was written")
        return
    print(
        f"branch {result.branch} holds the pass; review it with "
        f"`git log --stat {result.base_branch}..{result.branch}`, then "
        f"`gitcurator merge {result.run_id}` "
        f"({verb} change the default branch only then)"
    )


def _llm_line(result: PassResult) -> None:
    llm = result.doc.get("llm")
    if not llm:
        return
    clusters = llm["clusters"]
    waiting = sum(1 for c in clusters if c["status"] == "not_reviewed")
    line = (
        f"  model {llm['model']}: {plural(len(clusters), 'cluster')}, "
        f"{plural(llm['requests'], 'request')}, {llm['prompt_tokens']} prompt + "
        f"{llm['completion_tokens']} completion tokens, {llm['wall_seconds']:.1f} s"
    )
    if waiting:
        line += f"; {waiting} not reviewed ({llm['stopped']})"
    print(line)

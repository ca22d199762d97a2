"""Any model reply is a plan the guards judge, or a cluster failed with a reason: never an
exception, and nothing a fold writes loses a skill or breaks the SKILL.md format."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from support.fuzz_inputs import FUZZ, json_values, mutated_json
from support.plans import NOW, pass_inputs, sibling_library, skill_md
from support.scripted_model import ScriptedModel

from gitcurator.curation.cluster_review import parse_answer, review_clusters
from gitcurator.curation.umbrella_plan import APPLIED, FAILED, KEPT, REFUSED
from gitcurator.skills.document import parse_skill_md

PDF = ("pdf-extract-forms", "pdf-extract-images", "pdf-extract-tables")
_FILES, _ROWS = sibling_library(*PDF)
_FILES = {
    **_FILES,
    **{
        f"{n}/references/notes.md": f"Notes on {n}; see [forms](../{PDF[0]}/SKILL.md).".encode()
        for n in PDF
    },
    "pdf-extract-tables/scripts/run.sh": b"#!/bin/sh\necho tables\n",
    "sourdough-starter/SKILL.md": skill_md("sourdough-starter"),
}
INPUTS = pass_inputs(_FILES, _ROWS)

_NAMES = st.one_of(
    st.sampled_from((*PDF, "pdf-extraction", "sourdough-starter", "", "Bad Name", "../x")),
    st.text(max_size=12),
)
_BODIES = st.one_of(
    st.just("\n\n".join(f"## {n}\n\nRun `{n.replace('-', '_')} --all` for {n}." for n in PDF)),
    st.text(max_size=80),
    st.sampled_from(("[notes](references/notes.md)", "see ../pdf-extract-forms/SKILL.md", "---")),
)
_PROPOSALS = st.fixed_dictionaries(
    {
        "name": _NAMES,
        "description": st.one_of(st.just("Use for PDF extraction."), st.text(max_size=40)),
        "body": _BODIES,
        "absorb": st.lists(_NAMES, max_size=4),
        "demote": st.lists(
            st.fixed_dictionaries(
                {
                    "skill": _NAMES,
                    "to": st.sampled_from(
                        ("references/a.md", "scripts/x.sh", "templates/t", "references/../../x")
                    ),
                }
            ),
            max_size=2,
        ),
        "reason": st.text(max_size=10),
    }
)
_FULL_BODY = "\n\n".join(
    f"## {n}\n\nRun `{n.replace('-', '_')} --all` and check the output of {n}.\n\n"
    "Notes: [notes](references/notes.md)"
    for n in PDF
)
# Near a plan the guards accept, so the umbrella checks and the writes are reached often.
_GOOD = st.fixed_dictionaries(
    {
        "name": st.sampled_from(("pdf-extraction", "pdf-extract", PDF[0])),
        "description": st.just("Use for PDF extraction tasks."),
        "body": st.one_of(st.just(_FULL_BODY), st.text(max_size=20).map(_FULL_BODY.__add__)),
        "absorb": st.lists(st.sampled_from(PDF), min_size=1, max_size=3, unique=True),
        "demote": st.lists(
            st.fixed_dictionaries(
                {
                    "skill": st.sampled_from(PDF),
                    "to": st.sampled_from(("references/a.md", "scripts/run.sh", "templates/t.md")),
                }
            ),
            max_size=1,
        ),
        "reason": st.just("one task"),
    }
)
_PLANS = st.fixed_dictionaries(
    {
        "umbrellas": st.lists(st.one_of(_GOOD, _PROPOSALS), max_size=3),
        "keep": st.lists(
            st.fixed_dictionaries({"skill": _NAMES, "reason": st.text(max_size=5)}), max_size=2
        ),
    }
)
_KEYS = ("umbrellas", "keep")
REPLIES = st.one_of(
    _PLANS.map(json.dumps),
    _PLANS.map(json.dumps),
    mutated_json(_PLANS, _KEYS),
    json_values.map(json.dumps),
    st.text(max_size=100),
)


def _review(reply: str) -> Any:
    return review_clusters(
        INPUTS.rows, INPUTS.entries, INPUTS.read, INPUTS.config, NOW, ScriptedModel(reply)
    )


@FUZZ
@given(REPLIES)
def test_any_reply_is_judged_by_the_guards_and_never_loses_a_skill(reply: str) -> None:
    plan = _review(reply)
    [review] = plan.reviews
    answer = parse_answer(reply)
    assert (
        review.status == FAILED
        if isinstance(answer, str)
        else review.status in (APPLIED, KEPT, REFUSED)
    )
    live = set(PDF)
    for fold in plan.folds:
        u = fold.umbrella
        assert set(u.folded) <= live and u.name not in u.folded
        live -= set(u.folded)
        # Every folded skill is moved whole into the archive, never deleted.
        assert set(u.archived) == {f"{s}" for s in u.folded}
        assert all(target.startswith(".archive/") for target in u.archived.values())
        for path, data in u.writes.items():
            if path.endswith("/SKILL.md"):
                doc = parse_skill_md(data)
                assert doc.name == u.name
    assert len(plan.refused) == sum(1 for v in review.verdicts if v.refused) + (
        1 if review.status == FAILED else 0
    )

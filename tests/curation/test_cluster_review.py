"""Planning the umbrella step: the model asked per cluster, each proposal checked, decided."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.plans import NOW, pass_inputs, sibling_library
from support.scripted_model import ScriptedModel, plan_reply, umbrella

from gitcurator.config import Config, CuratorPolicy, LlmSettings
from gitcurator.curation.cluster_review import ClusterProgress, parse_answer, review_clusters
from gitcurator.curation.pass_inputs import PassInputs
from gitcurator.curation.umbrella_plan import (
    APPLIED,
    FAILED,
    KEPT,
    NOT_REVIEWED,
    REFUSED,
    UmbrellaPlan,
)
from gitcurator.umbrella.clusters import Cluster
from gitcurator.umbrella.model_errors import LlmError

PDF = ("pdf-extract-forms", "pdf-extract-images", "pdf-extract-tables")


def _body(names: tuple[str, ...]) -> str:
    return "\n\n".join(
        f"## {n}\n\nRun `{n.replace('-', '_')} --all` and check the output of {n}." for n in names
    )


def _review(
    inputs: PassInputs, model: ScriptedModel, progress: ClusterProgress | None = None
) -> UmbrellaPlan:
    return review_clusters(
        inputs.rows, inputs.entries, inputs.read, inputs.config, NOW, model, progress
    )


def test_a_good_plan_is_one_fold_holding_every_file_it_writes() -> None:
    inputs = pass_inputs(*sibling_library(*PDF, "sourdough-starter"))
    model = ScriptedModel(plan_reply(umbrella("pdf-extraction", list(PDF), _body(PDF))))
    plan = _review(inputs, model)
    assert len(model.messages) == 1 and "sourdough-starter" not in model.messages[0]
    [fold] = plan.folds
    assert fold.cluster == "pdf-extract"
    assert fold.umbrella.absorbed == PDF
    assert set(fold.umbrella.writes) == {"pdf-extraction/SKILL.md"}
    assert fold.umbrella.archived == {n: f".archive/{n}" for n in PDF}
    [review] = plan.reviews
    assert review.status == APPLIED and plan.valid_plans == 1 and not plan.failed
    assert plan.refused == ()
    assert plan.use.requests == 1 and plan.use.model == "scripted"
    assert plan.use.endpoint == "http://model.invalid/v1"


def test_each_proposal_is_checked_against_the_ones_accepted_before_it() -> None:
    inputs = pass_inputs(*sibling_library(*PDF))
    first = umbrella("pdf-extraction", list(PDF), _body(PDF))
    second = umbrella("pdf-tools", ["pdf-extract-tables"], _body(PDF[2:]))
    plan = _review(inputs, ScriptedModel(plan_reply(first, second)))
    assert [f.umbrella.name for f in plan.folds] == ["pdf-extraction"]
    [refusal] = plan.refused
    assert refusal.what == "umbrella pdf-tools (pdf-extract)"
    assert "already folded by another umbrella" in refusal.reason
    [review] = plan.reviews
    assert review.status == APPLIED
    assert [v.refused is None for v in review.verdicts] == [True, False]


def test_a_plan_keeping_every_skill_is_usable_and_a_refused_one_is_not() -> None:
    families = ("alpha-dial-1", "alpha-dial-2", "bravo-knob-1", "bravo-knob-2")
    inputs = pass_inputs(*sibling_library(*families))
    lossy = umbrella(
        "bravo-knobs", ["bravo-knob-1", "bravo-knob-2"], "Nothing.", description="Vague."
    )
    plan = _review(inputs, ScriptedModel(plan_reply(keep=families[:2]), plan_reply(lossy)))
    assert [r.status for r in plan.reviews] == [KEPT, REFUSED]
    assert plan.valid_plans == 1 and not plan.failed
    assert "loses content" in plan.refused[0].reason


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("Sure, merge them.", "not JSON"),
        ('{"umbrellas": [{"name": "x"}]}', "breaks the plan schema"),
    ],
)
def test_a_reply_that_is_no_plan_fails_its_cluster(reply: str, why: str) -> None:
    plan = _review(pass_inputs(*sibling_library(*PDF)), ScriptedModel(reply))
    [review] = plan.reviews
    assert review.status == FAILED and why in (review.error or "")
    assert plan.refused[0].what == "cluster pdf-extract"
    assert plan.failed


def test_three_failures_in_a_row_stop_asking() -> None:
    names = [
        f"{f}-{i}"
        for f in ("alpha-dial", "bravo-knob", "charlie-lever", "delta-gauge")
        for i in (1, 2)
    ]
    down = LlmError("asking scripted failed: refused")
    model = ScriptedModel(down, down, down, down)
    plan = _review(pass_inputs(*sibling_library(*names)), model)
    assert [r.status for r in plan.reviews] == [FAILED, FAILED, FAILED, NOT_REVIEWED]
    assert plan.stopped == "3 requests in a row failed" and model.asks == 3


def test_max_requests_leaves_the_rest_not_reviewed() -> None:
    names = [f"{f}-{i}" for f in ("alpha-dial", "bravo-knob") for i in (1, 2)]
    files, rows = sibling_library(*names)
    config = Config(curator=CuratorPolicy(min_age_days=7), llm=LlmSettings(max_requests=1))
    plan = _review(pass_inputs(files, rows, config=config), ScriptedModel(plan_reply()))
    assert [r.status for r in plan.reviews] == [KEPT, NOT_REVIEWED]
    assert plan.stopped == "llm.max_requests=1 reached"


def test_skills_the_lifecycle_archives_are_not_asked_about() -> None:
    files, rows = sibling_library(*PDF)
    rows = [replace(r, state="archived") if r.name == PDF[0] else r for r in rows]
    model = ScriptedModel(plan_reply())
    plan = _review(pass_inputs(files, rows), model)
    assert plan.reviews[0].members == PDF[1:]
    assert PDF[0] not in model.messages[0].split(":", 1)[0]


class _Seen:
    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def started(self, clusters: int) -> None:
        self.calls.append(("started", clusters))

    def asking(self, k: int, cluster: Cluster, tokens: int) -> None:
        self.calls.append(("asking", k, cluster.key, tokens))

    def finished(self) -> None:
        self.calls.append(("finished",))


def test_progress_hears_each_cluster_asked() -> None:
    names = [f"{f}-{i}" for f in ("alpha-dial", "bravo-knob") for i in (1, 2)]
    seen = _Seen()
    model = ScriptedModel(plan_reply(), plan_reply())
    _review(pass_inputs(*sibling_library(*names)), model, progress=seen)
    first_tokens = (
        model.prompt_tokens
        + model.completion_tokens
        - (len(model.messages[1]) // 4 + len(plan_reply()) // 4)
    )
    assert seen.calls == [
        ("started", 2),
        ("asking", 1, "alpha-dial", 0),
        ("asking", 2, "bravo-knob", first_tokens),
        ("finished",),
    ]


def test_parse_answer_gives_the_plan_or_why_not() -> None:
    assert parse_answer(plan_reply()) == {"umbrellas": [], "keep": []}
    assert str(parse_answer("[")).startswith("not JSON (JSONDecodeError: ")
    assert str(parse_answer("{}")).startswith("breaks the plan schema: ")

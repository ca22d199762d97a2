"""The umbrella step's budget: llm.budget_seconds bounds the step, each ask gets what is
left and a reply cap from its cluster, and the clusters left are not reviewed, with why."""

from __future__ import annotations

from support.plans import NOW, pass_inputs, sibling_library
from support.scripted_model import ScriptedModel, plan_reply

from gitcurator.config import Config, CuratorPolicy, LlmSettings
from gitcurator.curation.cluster_review import review_clusters
from gitcurator.curation.umbrella_plan import KEPT, NOT_REVIEWED
from gitcurator.umbrella.model_errors import BudgetSpent
from gitcurator.umbrella.model_reply import reply_cap

NAMES = [f"{f}-{i}" for f in ("alpha-dial", "bravo-knob", "charlie-lever") for i in (1, 2)]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _config(budget: float) -> Config:
    return Config(curator=CuratorPolicy(min_age_days=7), llm=LlmSettings(budget_seconds=budget))


def test_the_budget_leaves_the_clusters_after_it_not_reviewed() -> None:
    clock = Clock()
    files, rows = sibling_library(*NAMES)
    inputs = pass_inputs(files, rows, config=_config(50))

    def answer(user: str) -> str:
        clock.now += 30  # each ask takes 30 s of the 50
        return plan_reply()

    model = ScriptedModel(answer=answer)
    plan = review_clusters(
        inputs.rows, inputs.entries, inputs.read, inputs.config, NOW, model, clock=clock
    )
    assert [r.status for r in plan.reviews] == [KEPT, KEPT, NOT_REVIEWED]
    assert plan.stopped == "llm.budget_seconds=50 spent"
    # Each ask was given what was left of the budget, and a cap from its own cluster.
    assert model.withins == [50.0, 20.0]
    assert model.caps == [reply_cap(m) for m in model.messages]


def test_an_ask_cut_by_the_budget_is_not_reviewed_and_stops_the_step() -> None:
    files, rows = sibling_library(*NAMES)
    inputs = pass_inputs(files, rows, config=_config(10))
    spent = BudgetSpent("asking scripted failed: llm.budget_seconds ran out")
    model = ScriptedModel(plan_reply(), spent)
    plan = review_clusters(inputs.rows, inputs.entries, inputs.read, inputs.config, NOW, model)
    assert [r.status for r in plan.reviews] == [KEPT, NOT_REVIEWED, NOT_REVIEWED]
    assert plan.stopped == "llm.budget_seconds=10 spent" and model.asks == 2
    assert plan.refused == ()  # not a refusal: nobody judged those clusters

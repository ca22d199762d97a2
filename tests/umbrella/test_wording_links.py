"""Wording links: skills compared by what they say, not what they are called."""

from __future__ import annotations

import pytest

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.wording_links import read_wording


def skill(name: str, description: str, body: str = "") -> Candidate:
    return Candidate(name, name, description, body)


PODS = skill("k8s-pods", "Debug Kubernetes pods with kubectl describe and logs.")
CRASHLOOP = skill("crashloop-backoff", "Debug a Kubernetes pod in CrashLoopBackOff with kubectl.")
SOURDOUGH = skill("sourdough-starter", "Feed a sourdough starter with flour and water daily.")


def test_alike_skills_pair_and_say_why() -> None:
    wording = read_wording([CRASHLOOP, PODS, SOURDOUGH])
    pairs = wording.pairs(0.1)
    assert list(pairs) == [(0, 1)]
    assert pairs[0, 1] == pytest.approx(wording.score(0, 1), abs=1e-4)
    assert "kubectl" in wording.words(0, 1)


def test_names_are_not_read_as_wording() -> None:
    # Same name words, nothing else shared: no pair.
    a = skill("scikit-bio", "Diversity metrics and ordination for microbial ecology.")
    b = skill("scikit-learn", "Classification and regression models with cross-validation.")
    assert read_wording([a, b]).pairs(0.0) == {}


def test_pairs_below_the_floor_are_left_out() -> None:
    wording = read_wording([CRASHLOOP, PODS, SOURDOUGH])
    assert wording.pairs(wording.score(0, 1) + 0.01) == {}

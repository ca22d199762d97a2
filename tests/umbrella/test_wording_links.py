"""Wording links: a skill whose name joins no family is placed by what it says."""

from __future__ import annotations

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.wording_links import WordingLink, loner_links


def skill(name: str, description: str) -> Candidate:
    return Candidate(name, name, description, "")


FAMILY = [
    skill("k8s-pods", "Debug Kubernetes pods with kubectl describe and logs."),
    skill("k8s-services", "Debug Kubernetes services with kubectl get endpoints."),
]
CRASHLOOP = skill("crashloop-backoff", "Debug a Kubernetes pod in CrashLoopBackOff with kubectl.")
SOURDOUGH = skill("sourdough-starter", "Feed a sourdough starter with flour and water daily.")


def test_a_loner_links_to_the_family_it_reads_like_and_says_why() -> None:
    skills = [CRASHLOOP, *FAMILY, SOURDOUGH]
    [link] = loner_links(skills, {1: "k8s", 2: "k8s"}, 0.3)
    assert (link.a, link.b, link.family) == (0, 1, "k8s")
    assert "kubernetes" in link.words and link.score >= 0.3


def test_nothing_alike_links_nothing() -> None:
    assert loner_links([CRASHLOOP, SOURDOUGH], {}, 0.5) == []


def test_two_loners_alike_each_link_to_the_other() -> None:
    twin = skill("pod-crashes", "Debug a Kubernetes pod in CrashLoopBackOff with kubectl logs.")
    links = loner_links([CRASHLOOP, twin], {}, 0.5)
    assert [(x.a, x.b, x.family) for x in links] == [(0, 1, None), (1, 0, None)]
    assert all(isinstance(x, WordingLink) for x in links)

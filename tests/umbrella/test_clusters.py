"""Sibling clusters (SPEC §4.2), table-driven on the pure function."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.clusters import clusters, prefix_families


def skill(name: str, description: str = "", body: str = "", use_count: int = 0) -> Candidate:
    """A candidate whose text, unless given, says nothing beyond its name."""
    return Candidate(name, name, description or f"Use for {name}.", body, (), use_count)


def members(found: list[object]) -> list[set[str]]:
    return [set(c.members) for c in found]  # type: ignore[attr-defined]


# -- name prefixes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        pytest.param(
            ["pdf-extract-tables", "pdf-extract-images", "git-rebase"],
            [{"pdf-extract-tables", "pdf-extract-images"}],
            id="shared-prefix",
        ),
        pytest.param(
            ["pdf-extract-tables", "pdf-extract-images", "pdf-merge", "pdf-split"],
            [{"pdf-extract-images", "pdf-extract-tables"}, {"pdf-merge", "pdf-split"}],
            id="longest-prefix-wins",
        ),
        pytest.param(
            ["pdf-extract", "pdf-extract-tables"],
            [{"pdf-extract", "pdf-extract-tables"}],
            id="whole-name-is-the-prefix",
        ),
        pytest.param(
            ["terraform-plan", "terraform-import", "terraform-state-mv"],
            [{"terraform-plan", "terraform-import", "terraform-state-mv"}],
            id="one-word-family",
        ),
        pytest.param(
            ["debug-gpu-oom", "debug-websocket-drops", "fix-flaky-login", "fix-slow-build"],
            [],
            id="generic-first-word-is-no-family",
        ),
        pytest.param(
            ["how-to-bake-bread", "how-to-file-taxes"], [], id="all-generic-prefix-is-no-family"
        ),
        pytest.param(
            ["навык-один", "навык-два", "技能"], [{"навык-один", "навык-два"}], id="unicode"
        ),
        pytest.param(["solo"], [], id="one-skill"),
        pytest.param([], [], id="no-skills"),
    ],
)
def test_prefix_families(names: list[str], expected: list[set[str]]) -> None:
    found = clusters([skill(n) for n in names])
    assert sorted(members(found), key=sorted) == sorted(expected, key=sorted)


def test_prefix_family_names_the_longest_shared_prefix() -> None:
    names = ["pdf-extract-tables", "pdf-extract-images", "pdf-merge", "pdf-split", "git-rebase"]
    assert prefix_families(names) == {
        0: "pdf-extract",
        1: "pdf-extract",
        2: "pdf",
        3: "pdf",
    }


# -- wording -----------------------------------------------------------------------------------

CAMELOT = skill(
    "camelot-table-reader",
    "Read tables out of PDF reports with camelot and save each one as a CSV file.",
    "Open the PDF with camelot, detect the table areas on every page and export each table "
    "to CSV. Scanned PDF pages need OCR first.",
)
TABULAR = skill(
    "tabular-pdf-export",
    "Export the tables of a PDF report to CSV files using camelot.",
    "Run camelot on the PDF pages, check every detected table for merged cells, then write "
    "one CSV per table.",
)
SOURDOUGH = skill(
    "sourdough-starter",
    "Feed and maintain a sourdough starter: flour ratios, feeding schedule, signs of trouble.",
    "Discard half, feed equal weights of flour and water, keep at room temperature overnight.",
)
INVOICES = skill(
    "invoice-reminders",
    "Send polite reminders for unpaid invoices and record the customer's reply.",
    "List overdue invoices from the accounting export, draft a reminder per customer.",
)
SSH = skill(
    "ssh-tunnel-setup",
    "Open an SSH tunnel to reach a database behind a bastion host.",
    "Use ssh -L with the bastion as jump host; keep the tunnel alive with autossh.",
)
K8S_PODS = skill(
    "k8s-debug-pods",
    "Debug failing Kubernetes pods with kubectl: logs, describe, events, restarts.",
    "Run kubectl describe pod and kubectl logs --previous to find why a container restarts.",
)
K8S_SERVICES = skill(
    "k8s-debug-services",
    "Debug Kubernetes services that do not route: selectors, endpoints, kubectl port-forward.",
    "Compare the service selector with pod labels; kubectl get endpoints shows what routes.",
)
CRASHLOOP = skill(
    "crashloop-triage",
    "Find why a Kubernetes pod is in CrashLoopBackOff with kubectl logs and describe.",
    "kubectl logs --previous shows the last crash; kubectl describe pod lists restarts, events.",
)


@pytest.mark.parametrize(
    ("skills", "expected"),
    [
        pytest.param(
            [CAMELOT, TABULAR, SOURDOUGH, INVOICES, SSH],
            [{"camelot-table-reader", "tabular-pdf-export"}],
            id="siblings-with-different-names",
        ),
        pytest.param(
            [K8S_PODS, K8S_SERVICES, CRASHLOOP, SOURDOUGH, INVOICES],
            [{"k8s-debug-pods", "k8s-debug-services", "crashloop-triage"}],
            id="a-differently-named-sibling-joins-its-family",
        ),
        pytest.param([SOURDOUGH, INVOICES, SSH, CAMELOT], [], id="unrelated-skills-stay-apart"),
    ],
)
def test_wording(skills: list[Candidate], expected: list[set[str]]) -> None:
    assert members(clusters(skills)) == expected


def test_wording_cannot_join_two_name_families() -> None:
    # Near-identical text, but the names say these are two families: each is its own request.
    text = "Debug failing Kubernetes pods with kubectl logs and describe."
    skills = [skill(n, text) for n in ("k8s-pods-a", "k8s-pods-b", "kube-pods-a", "kube-pods-b")]
    assert members(clusters(skills)) == [
        {"k8s-pods-a", "k8s-pods-b"},
        {"kube-pods-a", "kube-pods-b"},
    ]


def test_threshold_decides_how_alike_is_alike() -> None:
    pair = [CAMELOT, TABULAR, SOURDOUGH]
    assert members(clusters(pair, threshold=0.1)) == [
        {"camelot-table-reader", "tabular-pdf-export"}
    ]
    assert clusters(pair, threshold=0.99) == []


# -- reasons and keys --------------------------------------------------------------------------


def test_every_member_has_a_reason() -> None:
    [family] = clusters([K8S_PODS, K8S_SERVICES, CRASHLOOP])
    assert family.key == "k8s-debug"
    assert family.members == ("crashloop-triage", "k8s-debug-pods", "k8s-debug-services")
    assert family.reasons["k8s-debug-pods"] == "name prefix k8s-debug"
    assert family.reasons["crashloop-triage"].startswith("wording like the k8s-debug family (0.")
    assert "kubectl" in family.reasons["crashloop-triage"]
    [pair] = clusters([CAMELOT, TABULAR])
    assert pair.reasons["tabular-pdf-export"].startswith("wording like camelot-table-reader (")


def test_key_without_a_shared_prefix_is_the_most_used_member() -> None:
    used = [skill(s.name, s.description, s.body, n) for s, n in ((CAMELOT, 3), (TABULAR, 9))]
    [pair] = clusters(used)
    assert pair.key == "tabular-pdf-export"
    assert pair.to_json() == {
        "key": "tabular-pdf-export",
        "members": ["camelot-table-reader", "tabular-pdf-export"],
        "reasons": pair.reasons,
    }


# -- size, singletons, determinism -------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "max_size", "sizes"),
    [
        (12, 12, [12]),
        (13, 12, [7, 6]),
        (30, 12, [10, 10, 10]),
        (9, 4, [3, 3, 3]),
        (7, 3, [3, 2, 2]),
    ],
)
def test_size_cap_splits_in_name_order(count: int, max_size: int, sizes: list[int]) -> None:
    names = [f"git-topic{i:02d}" for i in range(count)]
    found = clusters([skill(n) for n in names], max_size=max_size)
    assert [len(c.members) for c in found] == sizes
    assert [m for c in found for m in c.members] == names
    assert all(c.key == "git" for c in found)
    assert "split from a group of" not in found[0].reasons[names[0]]  # prefix still holds


LOOKALIKE_BODY = (
    "Pull the numbers from the ledger export, compare them with last week, flag changes over "
    "ten percent and post the summary to the finance channel before the Monday review."
)


def test_a_lookalike_group_over_the_cap_is_split() -> None:
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike oscar"
    lookalikes = [
        skill(f"{w}-report", f"Summarise the weekly {w} sales report.", LOOKALIKE_BODY)
        for w in words.split()
    ]
    found = clusters(lookalikes)
    assert sum(len(c.members) for c in found) > 12  # one group before the cap
    assert all(2 <= len(c.members) <= 12 for c in found)


def test_over_the_cap_the_weakest_wording_link_is_cut_first() -> None:
    kinds = "pods services ingress jobs nodes volumes secrets probes quotas rollouts configmaps"
    family = [
        skill(
            f"k8s-debug-{x}",
            f"Debug failing Kubernetes {x} with kubectl: logs, describe, events.",
            f"Run kubectl describe on the {x} and read the events; kubectl logs shows what failed.",
        )
        for x in kinds.split()
    ]
    drain = skill(
        "node-drain-notes",
        "Drain a Kubernetes node before maintenance with kubectl drain.",
        "Cordon the node, kubectl drain it, check the pods moved, uncordon afterwards.",
    )
    everything = [*family, CRASHLOOP, drain]
    # 13 linked skills, one over the cap: the drain notes are the loosest fit and go.
    assert len(clusters(everything, threshold=0.1, max_size=20)[0].members) == 13
    [capped] = clusters(everything, threshold=0.1)
    assert len(capped.members) == 12
    assert "crashloop-triage" in capped.members and "node-drain-notes" not in capped.members


def test_max_size_below_three_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 3"):
        clusters([], max_size=2)


def test_singletons_are_not_returned() -> None:
    found = clusters([K8S_PODS, K8S_SERVICES, SOURDOUGH, INVOICES])
    assert [c.members for c in found] == [("k8s-debug-pods", "k8s-debug-services")]
    assert all(len(c.members) >= 2 for c in found)


MIXED = [
    CAMELOT,
    TABULAR,
    SOURDOUGH,
    INVOICES,
    SSH,
    K8S_PODS,
    K8S_SERVICES,
    CRASHLOOP,
    *(skill(f"pdf-extract-{x}", f"Extract {x} from PDF files.") for x in ("forms", "fonts")),
    *(skill(f"git-{x}", f"Git {x} in a repository.") for x in ("rebase", "bisect", "reflog")),
    *(skill(f"debug-{x}") for x in ("gpu", "dns")),
]


@settings(max_examples=40, deadline=None)
@given(st.permutations(MIXED))
def test_same_input_in_any_order_gives_the_same_clusters(shuffled: list[Candidate]) -> None:
    assert clusters(shuffled) == clusters(MIXED)


def test_a_thousand_skills_cluster_in_well_under_a_second() -> None:
    import time

    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(3000)]
    skills = [
        skill(
            f"fam{i // 6}-part{i % 6}",
            " ".join(rng.sample(vocab, 30)),
            " ".join(rng.sample(vocab, 200)),
        )
        for i in range(800)
    ] + [skill(f"loner{i}-x", " ".join(rng.sample(vocab, 30))) for i in range(200)]
    start = time.perf_counter()
    found = clusters(skills)
    assert time.perf_counter() - start < 2.0  # ~0.2 s on a laptop; slack for loaded CI
    assert len(found) >= 800 // 6

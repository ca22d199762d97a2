"""Sibling clusters (SPEC §4.2), table-driven on the pure function."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.clusters import NAME_BONUS, clusters, prefix_families
from gitcurator.umbrella.wording_links import read_wording


def skill(name: str, description: str = "", body: str = "", use_count: int = 0) -> Candidate:
    """A candidate whose text, unless given, says nothing beyond its name."""
    return Candidate(name, name, description or f"Use for {name}.", body, (), use_count)


def members(found: list[object]) -> list[set[str]]:
    return [set(c.members) for c in found]  # type: ignore[attr-defined]


# -- name prefixes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "names",
    [
        pytest.param(["scikit-bio", "scikit-learn", "scikit-survival"], id="library-family"),
        pytest.param(["api-bible", "api-labz", "api-ninjas"], id="vendor-prefix"),
        pytest.param(["mx-technologies", "mx-toolbox"], id="two-names"),
        pytest.param(["pdf-extract-tables", "pdf-extract-images"], id="long-prefix"),
    ],
)
def test_a_shared_name_prefix_alone_makes_no_cluster(names: list[str]) -> None:
    # Each says something of its own: the prefix is all they share.
    topics = ["microbial ecology diversity", "regression classifiers", "censored hazards"]
    skills = [
        skill(n, f"Work on {t}.", f"Steps for {t}.") for n, t in zip(names, topics, strict=False)
    ]
    assert clusters(skills) == []


def test_a_shared_prefix_tips_a_pair_that_reads_almost_alike() -> None:
    a = ("Read tables out of PDF reports with camelot and save each one as CSV.", "camelot CSV")
    b = ("Export the tables of a PDF report to CSV files using camelot.", "tables pages")
    named_apart = [skill("camelot-table-reader", *a), skill("tabular-pdf-export", *b)]
    family = [skill("pdf-table-reader", *a), skill("pdf-table-export", *b)]
    score = read_wording(named_apart).score(0, 1)  # names are not wording: the same for both
    assert score == pytest.approx(read_wording(family).score(0, 1))
    short_of_it = score + NAME_BONUS / 2
    assert members(clusters(family, threshold=short_of_it)) == [set(c.name for c in family)]
    assert clusters(named_apart, threshold=short_of_it) == []


def test_prefix_family_names_the_longest_shared_prefix() -> None:
    names = ["pdf-extract-tables", "pdf-extract-images", "pdf-merge", "pdf-split", "git-rebase"]
    assert prefix_families(names) == {
        0: "pdf-extract",
        1: "pdf-extract",
        2: "pdf",
        3: "pdf",
    }
    assert prefix_families(["debug-gpu-oom", "debug-dns", "how-to-x", "how-to-y"]) == {}


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


def test_template_text_most_skills_share_does_not_make_siblings() -> None:
    # A generated library: one description and body for every app, only the name changed.
    apps = "zerobounce kickbox ticktick brightpearl placid tomba nango ynab adrapid bugsnag kaleido"
    apps += " cincopa lodgify brex"
    generated = [
        skill(
            f"{app}-automation",
            f"Automate {app.title()} tasks via Rube MCP (Composio). Always search tools first.",
            f"# {app.title()} Automation\n\nCall RUBE_SEARCH_TOOLS first for current schemas.\n"
            f"Then RUBE_MANAGE_CONNECTIONS with toolkit `{app}`.",
        )
        for app in apps.split()
    ]
    assert members(clusters([*generated, CAMELOT, TABULAR])) == [
        {"camelot-table-reader", "tabular-pdf-export"}
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
    assert family.reasons["k8s-debug-pods"].startswith("name prefix k8s-debug, wording like ")
    assert family.reasons["crashloop-triage"].startswith("wording like k8s-debug-pods (0.")
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


LEDGER = "ledger sales finance revenue invoice monday summary weekly totals".split()  # noqa: SIM905


def lookalike(name: str, k: int) -> Candidate:
    """One of many reports on the same ledger, each worded a little differently (so no line
    is a template the library repeats)."""
    words = LEDGER[k % 9 :] + LEDGER[: k % 9]
    return skill(name, " ".join(words[:6]) + f" {k}.", " ".join(words[3:]) + f" x{k}.")


@pytest.mark.parametrize(("count", "max_size"), [(14, 12), (18, 12), (9, 4), (7, 3)])
def test_no_cluster_outgrows_max_size(count: int, max_size: int) -> None:
    found = clusters([lookalike(f"report-{k:02d}", k) for k in range(count)], max_size=max_size)
    assert sum(len(c.members) for c in found) >= count - 1  # all alike: at most one alone
    assert all(2 <= len(c.members) <= max_size for c in found)


def test_max_size_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        clusters([], max_size=1)


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


def test_a_thousand_skills_cluster_in_seconds() -> None:
    import time

    rng = random.Random(3)
    # Every skill is compared with every other that shares a word, so the vocabulary's size
    # sets the work: 20,000 words, about what 1,000 real skills use.
    vocab = [f"w{i}" for i in range(20000)]
    # 133 families of six, each drawing part of its words from a subject of its own.
    subjects = [rng.sample(vocab, 60) for _ in range(134)]
    skills = [
        skill(
            f"fam{i // 6}-part{i % 6}",
            " ".join(rng.sample(subjects[i // 6], 20) + rng.sample(vocab, 10)),
            " ".join(rng.sample(subjects[i // 6], 40) + rng.sample(vocab, 150)),
        )
        for i in range(800)
    ] + [skill(f"loner{i}-x", " ".join(rng.sample(vocab, 30))) for i in range(200)]
    start = time.perf_counter()
    found = clusters(skills)
    assert time.perf_counter() - start < 6.0  # ~1 s on a laptop; slack for loaded CI
    assert len(found) >= 800 // 6
    assert not any(m.startswith("loner") for c in found for m in c.members)

"""Sibling clusters for the umbrella pass, computed without a model (pure, deterministic).

Siblings are skills that say alike things: wording decides (wording_links.py), pair by pair,
weighed over the whole library, with the library's template lines left out. Skills are
joined by average linkage (grouping.py): a skill joins a group only by resembling most of its
members, and no group outgrows one request. A shared hyphen-separated name prefix
(`pdf-extract-tables`, `pdf-extract-images`) adds a little to a pair's score, never enough
on its own: `scikit-bio` and `scikit-learn`, or `api-bible` and `api-ninjas`, share a prefix
and nothing else. Singletons are not returned: a skill with no sibling has nothing to merge
with.

Same candidates in any order give the same clusters: they are sorted by name first, and every
tie is broken by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.grouping import average_linkage
from gitcurator.umbrella.wording import name_tokens
from gitcurator.umbrella.wording_links import Wording, read_wording

# Mean wording score (cosine) at which groups join. On the 150 hand-labelled skills of
# tests/data/sibling_labels.json (bench/real_libraries.py), labelled siblings score a median
# 0.22 against each other and other pairs 0.03 (90th percentile 0.07); of the thresholds tried
# (0.18-0.40), 0.20 gave the best precision and recall together.
DEFAULT_THRESHOLD = 0.2
# What a shared name prefix adds to a pair's score: less than the threshold, so a pair must
# read alike as well (at least DEFAULT_THRESHOLD - NAME_BONUS), and no more than a nudge to
# siblings whose wording is a little short of the threshold.
NAME_BONUS = 0.05
# Pairs scoring less than this are not kept (they count 0 in a mean): the work then follows
# the pairs that matter, not the library's size squared.
PAIR_FLOOR = 0.08
# One cluster is one LLM request: more members than this overflow the prompt budget.
MAX_CLUSTER = 12

# A one-word name prefix that is a generic verb or filler says nothing about a shared subject:
# `debug-gpu-oom` and `debug-websocket-drops` are not siblings.
GENERIC_PREFIXES = frozenset(
    """
    a an the my our how to use using do make create new get set run fix debug add update write
    build handle manage setup general misc custom test tmp temp quick simple basic auto agent
    skill task tool tools helper helpers util utils check find learn read show try
    """.split()  # noqa: SIM905
)


@dataclass(frozen=True, slots=True)
class Cluster:
    """Likely siblings: `members` sorted by name, `key` a shared prefix or a representative,
    `reasons` each member's link to the others, in words."""

    members: tuple[str, ...]
    key: str
    reasons: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The cluster as `clusters --json` shows it."""
        return {"key": self.key, "members": list(self.members), "reasons": dict(self.reasons)}


def clusters(
    candidates: Sequence[Candidate],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    max_size: int = MAX_CLUSTER,
) -> list[Cluster]:
    """The clusters of likely siblings among `candidates`, sorted by first member."""
    if max_size < 2:
        raise ValueError(f"max_size must be at least 2, not {max_size}")
    skills = sorted(candidates, key=lambda c: (c.name, c.path))
    names = [c.name for c in skills]
    families = prefix_families(names)
    wording = read_wording(skills)
    alike = wording.pairs(PAIR_FLOOR)
    scores = {
        (a, b): score + (NAME_BONUS if shared_prefix(names[a], names[b]) else 0.0)
        for (a, b), score in alike.items()
    }
    found = [
        _cluster(group, skills, families, wording, alike)
        for group in average_linkage(len(skills), scores, threshold, max_size)
        if len(group) > 1
    ]
    return sorted(found, key=lambda c: c.members)


# -- name prefixes ---------------------------------------------------------------------------


def prefix_families(names: Sequence[str]) -> dict[int, str]:
    """Index -> family prefix for every name that shares a prefix with another.

    A name's family is the longest prefix of whole parts (the whole name included, so
    `pdf-extract` joins `pdf-extract-tables`) that another name also starts with; a single
    generic word (`fix-`, `debug-`) is no family.
    """
    token_lists = [tuple(name_tokens(n)) for n in names]
    counts = Counter(tokens[:k] for tokens in token_lists for k in range(1, len(tokens) + 1))
    families: dict[int, str] = {}
    for i, tokens in enumerate(token_lists):
        for k in range(len(tokens), 0, -1):
            prefix = tokens[:k]
            if counts[prefix] >= 2 and not GENERIC_PREFIXES.issuperset(prefix):
                families[i] = "-".join(prefix)
                break
    return families


def shared_prefix(a: str, b: str) -> str:
    """The leading name parts `a` and `b` share, "" when none or only generic ones."""
    shared = []
    for x, y in zip(name_tokens(a), name_tokens(b), strict=False):
        if x != y:
            break
        shared.append(x)
    return "" if GENERIC_PREFIXES.issuperset(shared) else "-".join(shared)


# -- describing a cluster --------------------------------------------------------------------


def _cluster(
    part: list[int],
    skills: Sequence[Candidate],
    families: Mapping[int, str],
    wording: Wording,
    alike: Mapping[tuple[int, int], float],
) -> Cluster:
    family_size = Counter(families[i] for i in part if i in families)
    reasons: dict[str, str] = {}
    for i in part:
        # Its closest fellow member (ties: the first by name) says what ties it in.
        score = {j: alike.get((min(i, j), max(i, j)), 0.0) for j in part if j != i}
        other = max(score, key=lambda j: (score[j], -j))
        words = ", ".join(wording.words(i, other))
        why = f"wording like {skills[other].name} ({score[other]:.2f}: {words})"
        family = families.get(i)
        if family and family_size[family] >= 2:
            why = f"name prefix {family}, {why}"
        reasons[skills[i].name] = why
    return Cluster(tuple(skills[i].name for i in part), _key(part, skills, families), reasons)


def _key(part: list[int], skills: Sequence[Candidate], families: Mapping[int, str]) -> str:
    """The name prefix all members share, else the family most members belong to, else the
    most used member (the likeliest umbrella)."""
    token_lists = [name_tokens(skills[i].name) for i in part]
    shared: list[str] = []
    for column in zip(*token_lists, strict=False):
        if len(set(column)) != 1:
            break
        shared.append(column[0])
    if shared and not GENERIC_PREFIXES.issuperset(shared):
        return "-".join(shared)
    counts = Counter(families[i] for i in part if i in families)
    if counts:
        return min(counts, key=lambda f: (-counts[f], f))
    top = min(part, key=lambda i: (-skills[i].use_count, len(skills[i].name), skills[i].name))
    return skills[top].name

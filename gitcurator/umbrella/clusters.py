"""Sibling clusters for the umbrella pass, computed without a model (pure, deterministic).

Names come first: skills sharing a hyphen-separated name prefix form a family (`pdf-extract-
tables` and `pdf-extract-images` share `pdf-extract`; the longest prefix shared by two or more
wins). Wording places the rest (wording_links.py): a skill in no family joins whatever it
resembles most, another such skill or a family as a whole. The groups both signals make are
cut to the size of one request (grouping.py). Singletons are not returned: a skill with no
sibling has nothing to merge with.

Same candidates in any order give the same clusters: they are sorted by name first, and every
tie is broken by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.grouping import connected, split
from gitcurator.umbrella.wording import name_tokens
from gitcurator.umbrella.wording_links import WordingLink, loner_links

# Cosine similarity at which a skill's wording places it with a sibling. On the library of
# bench/bench_cluster.py, siblings named apart from their family score 0.50-0.79 against it
# (median 0.64); unrelated skills' best match scores 0.30-0.52 (median 0.43).
DEFAULT_THRESHOLD = 0.5
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
    # Cutting n > max_size skills into near-equal parts leaves none alone only from 3 up.
    if max_size < 3:
        raise ValueError(f"max_size must be at least 3, not {max_size}")
    skills = sorted(candidates, key=lambda c: (c.name, c.path))
    families = prefix_families([c.name for c in skills])
    links = loner_links(skills, families, threshold)
    found: list[Cluster] = []
    for group in connected(len(skills), families, links):
        for part in split(group, families, links, max_size):
            if len(part) > 1:
                found.append(_cluster(part, skills, families, links, len(group), max_size))
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


# -- describing a cluster --------------------------------------------------------------------


def _cluster(
    part: list[int],
    skills: Sequence[Candidate],
    families: Mapping[int, str],
    links: Sequence[WordingLink],
    group_size: int,
    max_size: int,
) -> Cluster:
    inside = set(part)
    family_size = Counter(families[i] for i in part if i in families)
    own = {x.a: x for x in links if x.a in inside and x.b in inside}
    reasons: dict[str, str] = {}
    for i in part:
        family = families.get(i)
        if family and family_size[family] >= 2:
            why = f"name prefix {family}"
        elif i in own:
            link = own[i]
            like = f"the {link.family} family" if link.family else skills[link.b].name
            why = f"wording like {like} ({link.score:.2f}: {', '.join(link.words)})"
        else:
            why = (
                f"split from a group of {group_size} linked skills (at most {max_size} per cluster)"
            )
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

"""Sibling clusters for the umbrella pass, computed without a model (pure, deterministic).

Names come first: skills sharing a hyphen-separated name prefix form a family (`pdf-extract-
tables` and `pdf-extract-images` share `pdf-extract`; the longest prefix shared by two or more
wins). Wording places the rest: a skill in no family joins whatever it resembles most, another
such skill or a family as a whole, when their TF-IDF cosine (name, description, start of the
body) reaches a threshold. Links are joined with union-find; a group larger than one request
may hold is split, first by dropping its weakest wording links, then in name order. Singletons
are not returned: a skill with no sibling has nothing to merge with.

Same candidates in any order give the same clusters: they are sorted by name first, and every
tie is broken by name.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gitcurator.config import CuratorPolicy
from gitcurator.timeutil import days_between

if TYPE_CHECKING:
    from gitcurator.lifecycle.inventory import SkillRow

# Cosine similarity at which a skill's wording places it with a sibling. On the library of
# bench/bench_cluster.py, siblings named apart from their family score 0.50-0.79 against it
# (median 0.64); unrelated skills' best match scores 0.30-0.52 (median 0.43).
DEFAULT_THRESHOLD = 0.5
# One cluster is one LLM request: more members than this overflow the prompt budget.
MAX_CLUSTER = 12
# Only the start of a long body is compared: it says what the skill is for; the rest is steps.
BODY_CHARS = 2000
# A word held by more units than this makes no candidates by itself (see _closest).
_MAX_POSTINGS = 200
# Imaginary texts sharing no word with the library, added to every word's idf (see tfidf_vectors).
_UNSEEN_DOCS = 50

# Words that say nothing about what a skill is for. Corpus-wide frequent words are dropped
# as well (see _max_df); this list covers libraries too small for frequencies to tell.
# (Word lists read best as text; ruff's SIM905 would make them a column of quoted words.)
STOP_WORDS = frozenset(
    """
    a about above after again against all also an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either
    else etc even ever every few first for from further get gets got had has have having he
    her here hers him his how however i if in into is it its itself just let like may me might
    more most much must my need needs never no nor not now of off on once one only or other our
    out over own per rather same see should so some such than that the their them then there
    these they this those through thus to too under until up upon us use used uses using very
    via was way we well were what when where whether which while who whom why will with within
    without would yet you your

    agent agents ask asks asked skill skills task tasks step steps user users want wants
    example examples note notes work works working make makes help helps sure always usually
    instead something anything thing things new run runs following follow follows
    """.split()  # noqa: SIM905
)
# A one-word name prefix that is a generic verb or filler says nothing about a shared subject:
# `debug-gpu-oom` and `debug-websocket-drops` are not siblings.
GENERIC_PREFIXES = frozenset(
    """
    a an the my our how to use using do make create new get set run fix debug add update write
    build handle manage setup general misc custom test tmp temp quick simple basic auto agent
    skill task tool tools helper helpers util utils check find learn read show try
    """.split()  # noqa: SIM905
)

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class Candidate:
    """One skill the umbrella pass may merge: what clustering and the prompt need of it."""

    name: str
    path: str
    description: str
    body: str
    support_files: tuple[str, ...] = ()
    use_count: int = 0
    # Parsed once when the candidate is loaded; the umbrella pass keeps a host's other keys.
    frontmatter: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Cluster:
    """Likely siblings: `members` sorted by name, `key` a shared prefix or a representative,
    `reasons` each member's link to the others, in words."""

    members: tuple[str, ...]
    key: str
    reasons: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "members": list(self.members), "reasons": dict(self.reasons)}


@dataclass(frozen=True, slots=True)
class _Link:
    """Why loner `a` joins skill `b` (indices into the name-sorted candidates): its wording is
    like `b`'s, or, when `family` is set, like that whole family's (`b` is its first member)."""

    a: int
    b: int
    score: float
    words: tuple[str, ...]  # the shared words that weigh most, for the reason
    family: str | None = None


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
    links = _loner_links(skills, families, threshold)
    found: list[Cluster] = []
    for group in _group(len(skills), families, links):
        for part in _split(group, families, links, max_size):
            if len(part) > 1:
                found.append(_cluster(part, skills, families, links, len(group), max_size))
    return sorted(found, key=lambda c: c.members)


# -- who may be clustered -------------------------------------------------------------------

ARCHIVED, NOT_CURATED, PINNED, PROTECTED, TOO_YOUNG = (
    "archived",
    "not_curated",
    "pinned",
    "protected",
    "too_young",
)


def left_out_because(row: SkillRow, policy: CuratorPolicy, now: datetime) -> str | None:
    """Why the umbrella pass must leave a skill alone (None: it is a candidate).

    SPEC §3 and §4.2: only live, curated, unpinned, unprotected skills at least
    `min_age_days` old; a skill whose age is unknown counts as too young.
    """
    if row.state == ARCHIVED:
        return ARCHIVED
    if not row.curated:
        return NOT_CURATED
    if row.pinned:
        return PINNED
    if row.protected:
        return PROTECTED
    if row.created_at is None or days_between(row.created_at, now) < policy.min_age_days:
        return TOO_YOUNG
    return None


# -- name prefixes ---------------------------------------------------------------------------


def name_tokens(name: str) -> list[str]:
    """A skill name's hyphen-separated parts."""
    return [t for t in name.split("-") if t]


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


# -- wording ---------------------------------------------------------------------------------


def word_counts(text: str, memo: dict[str, str | None] | None = None) -> Counter[str]:
    """Content words of `text` and how often each occurs: lower-cased, stop words and short or
    numeric tokens dropped, plurals folded (`tables` → `table`) so a sibling's phrasing still
    matches. `memo` carries token decisions from text to text (a library repeats its words)."""
    memo = {} if memo is None else memo
    counts: Counter[str] = Counter()
    for token, count in Counter(_WORD.findall(text.lower())).items():
        if token not in memo:
            skip = len(token) < 3 or token.isdigit() or token in STOP_WORDS
            memo[token] = None if skip else _singular(token)
        word = memo[token]
        if word is not None:
            counts[word] += count
    return counts


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def skill_text(candidate: Candidate) -> str:
    """What is compared: name parts, description (twice), and the start of the body.

    The description counts double: it is what an agent reads to pick a skill, so skills
    whose descriptions overlap are the ones it confuses.
    """
    name = " ".join(name_tokens(candidate.name))
    description = candidate.description
    return " ".join((name, description, description, candidate.body[:BODY_CHARS]))


def _max_df(n: int) -> int:
    # A word in more than a quarter of a large library is its boilerplate, not a subject;
    # leaving it out also bounds the work, which grows with each word's postings.
    return max(2 * MAX_CLUSTER, n // 4)


def tfidf_vectors(
    texts: Sequence[str], memo: dict[str, str | None] | None = None
) -> list[dict[str, float]]:
    """Sublinear tf × smoothed idf per text, L2-normalised; boilerplate words left out.
    `memo` (see word_counts) is filled with every token seen and the word it counts as."""
    memo = {} if memo is None else memo
    docs = [word_counts(t, memo) for t in texts]
    df: Counter[str] = Counter()
    for doc in docs:
        df.update(doc.keys())
    n, cap = len(docs), _max_df(len(docs))
    # Idf as if the library also held _UNSEEN_DOCS texts without these words: a library of
    # five cannot tell a common word from a rare one, so every word counts about the same
    # there, while a library of a thousand decides by itself.
    total = 1 + n + _UNSEEN_DOCS
    idf = {w: math.log(total / (1 + c)) + 1 for w, c in df.items() if c <= cap}
    return [
        _normalised({w: (1 + math.log(c)) * idf[w] for w, c in d.items() if w in idf}) for d in docs
    ]


def _normalised(vector: Mapping[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
    return {w: v / norm for w, v in vector.items()}


def _centroid(vectors: Iterable[Mapping[str, float]]) -> dict[str, float]:
    total: dict[str, float] = defaultdict(float)
    for vector in vectors:
        for w, v in vector.items():
            total[w] += v
    return _normalised(total)


def _loner_links(
    skills: Sequence[Candidate], families: Mapping[int, str], threshold: float
) -> list[_Link]:
    """For each skill without a name family, its closest match at `threshold` or above:
    another such skill, or a family as a whole (the centroid of its members' wording).

    Names already say which family a skill belongs to; wording only places the skills whose
    names do not. Comparing against a family's centroid weighs what its members share (the
    action, the tool) over what one member happens to share with the loner. One link per
    loner keeps a chain of look-alikes from gluing families together.
    """
    memo: dict[str, str | None] = {}
    vectors = tfidf_vectors([skill_text(s) for s in skills], memo)
    spelling = spellings(memo)
    loners = [i for i in range(len(skills)) if i not in families]
    members: dict[str, list[int]] = defaultdict(list)
    for i in sorted(families):
        members[families[i]].append(i)
    # Units are compared: loners one by one, families as centroids (keyed by first member).
    units: dict[int, tuple[dict[str, float], str | None]] = {i: (vectors[i], None) for i in loners}
    for name, indices in members.items():
        units[indices[0]] = (_centroid(vectors[i] for i in indices), name)
    unit_vectors = {k: v for k, (v, _) in units.items()}
    postings = _postings(unit_vectors)
    links = []
    for me in loners:
        closest = _closest(me, vectors[me], postings, unit_vectors, threshold)
        if closest is not None:
            other, score = closest
            vector, family = units[other]
            shared = tuple(spelling[w] for w in _top_words(vectors[me], vector))
            links.append(_Link(me, other, round(score, 4), shared, family))
    return links


def spellings(memo: Mapping[str, str | None]) -> dict[str, str]:
    """word -> its shortest spelling seen, so reasons read `kubernetes`, not `kubernete`."""
    spelling: dict[str, str] = {}
    for token, word in sorted(memo.items(), key=lambda kv: (len(kv[0]), kv[0])):
        if word is not None:
            spelling.setdefault(word, token)
    return spelling


def _postings(vectors: Mapping[int, Mapping[str, float]]) -> dict[str, list[tuple[int, float]]]:
    """word -> (unit, weight) of every unit holding it, units in index order."""
    postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for i in sorted(vectors):
        for word, weight in vectors[i].items():
            postings[word].append((i, weight))
    return postings


def _closest(
    me: int,
    vector: Mapping[str, float],
    postings: Mapping[str, list[tuple[int, float]]],
    units: Mapping[int, Mapping[str, float]],
    threshold: float,
) -> tuple[int, float] | None:
    """The unit most similar to `me` (ties: the first) if at or above `threshold`.

    Only units sharing a word are scored, through the inverted index, so the cost follows the
    shared vocabulary rather than the library's size squared. A word held by very many units
    does not make candidates (it is no evidence of kinship and would cost n² when a library
    is full of such words); it still counts in the score of the candidates found.
    """
    scores: dict[int, float] = defaultdict(float)
    crowded = []
    for word, weight in vector.items():
        entries = postings[word]
        if len(entries) > _MAX_POSTINGS:
            crowded.append((word, weight))
            continue
        for other, theirs in entries:
            scores[other] += weight * theirs
    scores.pop(me, None)
    if not scores:
        return None
    for other in scores:
        scores[other] += sum(weight * units[other].get(word, 0.0) for word, weight in crowded)
    other = min(scores, key=lambda j: (-scores[j], j))
    return (other, scores[other]) if scores[other] >= threshold else None


def _top_words(a: Mapping[str, float], b: Mapping[str, float], k: int = 3) -> tuple[str, ...]:
    shared = sorted(a.keys() & b.keys(), key=lambda w: (-a[w] * b[w], w))
    return tuple(shared[:k])


# -- grouping ----------------------------------------------------------------------------------


class _UnionFind:
    """Disjoint sets whose root is always the smallest index: deterministic by construction."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def groups(self, members: Iterable[int]) -> list[list[int]]:
        by_root: dict[int, list[int]] = defaultdict(list)
        for x in sorted(members):
            by_root[self.find(x)].append(x)
        return [g for _, g in sorted(by_root.items())]


def _group(
    n: int,
    families: Mapping[int, str],
    links: Iterable[_Link],
    members: Iterable[int] | None = None,
) -> list[list[int]]:
    """Connected groups of the members (all n when none given) under both signals."""
    uf = _UnionFind(n)
    first: dict[str, int] = {}
    for i in sorted(families):
        uf.union(first.setdefault(families[i], i), i)
    for link in links:
        uf.union(link.a, link.b)
    return uf.groups(range(n) if members is None else members)


def _split(
    group: list[int], families: Mapping[int, str], links: Sequence[_Link], max_size: int
) -> list[list[int]]:
    """`group` in parts of at most `max_size`: its weakest wording links are cut first (a loner
    cut loose is left out), and a part that is still too big is cut in name order."""
    inside = set(group)
    pending = [(group, [x for x in links if x.a in inside and x.b in inside])]
    done: list[list[int]] = []
    while pending:
        part, own = pending.pop()
        if len(part) <= max_size:
            done.append(part)
            continue
        weakest = min((x.score for x in own), default=None)
        kept = [x for x in own if weakest is not None and x.score > weakest]
        own_families = {i: families[i] for i in part if i in families}
        pieces = _group(max(part) + 1, own_families, kept, part) if own else []
        if all(len(piece) < 2 for piece in pieces):
            # No wording link to cut, or cutting leaves nothing together: name order decides.
            done.extend(_chunks(part, max_size))
            continue
        for piece in pieces:
            members = set(piece)
            pending.append((piece, [x for x in kept if x.a in members]))
    return sorted(done)


def _chunks(group: list[int], max_size: int) -> list[list[int]]:
    """Near-equal parts in name order (indices are name-sorted), so no part is a lone skill."""
    count = math.ceil(len(group) / max_size)
    size, extra = divmod(len(group), count)
    parts, start = [], 0
    for k in range(count):
        end = start + size + (1 if k < extra else 0)
        parts.append(group[start:end])
        start = end
    return parts


# -- describing a cluster --------------------------------------------------------------------


def _cluster(
    part: list[int],
    skills: Sequence[Candidate],
    families: Mapping[int, str],
    links: Sequence[_Link],
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

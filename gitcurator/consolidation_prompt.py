"""What the model is told about one cluster (pure): the umbrella method and the skills.

Each skill's text is sent once, in one request; the system prompt is short because it is
paid for on every cluster. A long body is sent as an excerpt (its start and its end), and the
model is told so: absorbing a skill it has not read whole would lose content, so it should
demote such a skill instead, which keeps the file whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gitcurator.cluster import Candidate, Cluster

# Characters of skill bodies one request may carry (about 12k tokens), shared by the members.
CLUSTER_BODY_BUDGET = 48_000
# No member gets less than this, however large the cluster.
MIN_BODY_CHARS = 3_000
SCHEMA_NAME = "consolidation_plan"

SYSTEM_PROMPT = """\
You curate a library of agent skills (SKILL.md files). You are shown one cluster of sibling \
skills that an agent wrote one at a time, often for one narrow session each. Reply with a \
consolidation plan as one JSON object.

The umbrella method:
- An umbrella is a class-level skill a maintainer would write once: named for the class of \
task (`pdf-tools`, `kubernetes-debugging`), never for one session (no issue or PR numbers, \
dates, `fix-`, `debug-`, `tmp-` one-offs).
- If one sibling is already broad, merge the others into it (use its name). Otherwise create a \
new umbrella.
- Its body has one section per sub-task, keeping each absorbed skill's concrete instructions, \
commands, flags, paths and pitfalls. Do not summarise them away: content that is lost is refused.
- A narrow but valuable skill, or one shown only as an excerpt, is demoted instead: its whole \
file moves to the umbrella's references/ (or templates/), and the umbrella body links to it.
- "Different trigger words" is no reason to keep skills apart: put the trigger words in the \
umbrella's description.
- Keep a skill (list it in `keep`) only if it is truly about something else.

Rules: name only skills of this cluster; each skill at most once; names are lowercase words \
joined by hyphens; demote targets are paths like `references/<skill>.md`. Support files of \
absorbed and demoted skills move under the umbrella to the paths shown; link them by those \
paths. The umbrella `body` is Markdown without frontmatter; the description says when to use \
it (at most 1024 characters). An empty `umbrellas` list is a valid answer.\
"""


def rehomed_path(member: str, relative: str) -> str:
    """Where a support file of an absorbed or demoted skill goes, inside the umbrella folder.

    Files keep their kind of folder (`scripts/x.py` -> `scripts/<member>/x.py`); anything
    else goes to `references/<member>/`. The member's name in the path keeps siblings'
    same-named files apart.
    """
    kind, _, rest = relative.partition("/")
    if rest and kind in ("references", "templates", "scripts", "assets"):
        return f"{kind}/{member}/{rest}"
    return f"references/{member}/{relative}"


def excerpt(body: str, limit: int) -> tuple[str, bool]:
    """`body`, or its start and end within `limit` characters; True when cut."""
    if len(body) <= limit:
        return body, False
    head = int(limit * 0.7)
    tail = limit - head
    omitted = len(body) - head - tail
    return f"{body[:head]}\n\n[... {omitted} characters omitted ...]\n\n{body[-tail:]}", True


def cluster_message(
    cluster: Cluster,
    members: Mapping[str, Candidate],
    *,
    budget: int = CLUSTER_BODY_BUDGET,
) -> str:
    """The user message for one cluster: every member with its description, body (or
    excerpt), support files and where they would go, and its usage."""
    names = list(cluster.members)
    share = max(MIN_BODY_CHARS, budget // max(1, len(names)))
    parts = [
        f"Cluster `{cluster.key}`: {len(names)} sibling skills: {', '.join(names)}.",
    ]
    for name in names:
        parts.append(_skill_section(members[name], share))
    return "\n\n".join(parts) + "\n"


def _skill_section(skill: Candidate, limit: int) -> str:
    text, cut = excerpt(skill.body.strip(), limit)
    lines = [
        f"## {skill.name}",
        f"description: {skill.description.strip()}",
        f"used: {skill.use_count} times",
    ]
    lines.extend(_support_lines(skill.name, skill.support_files))
    lines.append("body (excerpt: demote rather than absorb):" if cut else "body:")
    lines.append(text)
    return "\n".join(lines)


def _support_lines(name: str, files: Sequence[str]) -> list[str]:
    if not files:
        return []
    lines = ["support files (path now -> path under the umbrella):"]
    lines.extend(f"- {f} -> {rehomed_path(name, f)}" for f in files)
    return lines

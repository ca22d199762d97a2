"""What the model is told about one cluster (pure): the umbrella method and the skills.

Each skill's text is sent once, in one request; the system prompt is short because it is
paid for on every cluster. A long body is sent as an excerpt (its start and its end), and the
model is told so: absorbing a skill it has not read whole would lose content, so it should
demote such a skill instead, which keeps the file whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gitcurator.render import one_line
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.clusters import Cluster
from gitcurator.umbrella.paths import rehomed_path

# Characters of skill bodies one request may carry (about 12k tokens), shared by the members.
CLUSTER_BODY_BUDGET = 48_000
# No member gets less than this, however large the cluster.
MIN_BODY_CHARS = 3_000
SCHEMA_NAME = "consolidation_plan"

SYSTEM_PROMPT = """\
You curate a library of agent skills (SKILL.md). Below is one cluster of sibling skills an \
agent wrote one narrow session at a time. Reply with a consolidation plan as one JSON object.

The umbrella method:
- An umbrella is a class-level skill a maintainer would write once, named for the class of \
task (`pdf-tools`), never for a session (no issue numbers, dates, `fix-`/`debug-`/`tmp-`).
- Merge into a sibling that is already broad (use its name); else create a new umbrella.
- Its body has a section per sub-task and keeps each folded skill's concrete commands, flags, \
paths and pitfalls: content lost is refused.
- Demote a narrow but valuable skill, or one shown as an excerpt: its file moves whole to \
`references/<skill>.md` and the body links to it.
- Different trigger words are no reason to keep skills apart: put them in the description.
- `keep` only skills truly about something else.

Name only skills of this cluster, each at most once. Support files move to the paths shown; \
link them there. `body` is Markdown without frontmatter; `description` (<= 1024 chars) says \
when to use it. An empty `umbrellas` list is a valid answer.\
"""


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
    # A file name is the agent's to choose: bytes that are not UTF-8 could not be sent, and a
    # newline in one would write a line of the prompt.
    lines.extend(f"- {one_line(f)} -> {one_line(rehomed_path(name, f))}" for f in files)
    return lines

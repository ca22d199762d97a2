"""The sample library of `gitcurator demo`: its skills, read from the package's skills/ folder.

Thirty-odd skills in sibling families (pdf-*, docker-*, git-*, csv-* ...) as an agent's
learning loop leaves them, plus a few a person wrote and a few installed from a hub. With the
default thresholds (stale after 30 days, archive after 90) a pass archives the five long-idle
agent skills and marks five stale, while the user, hub and pinned skills, and the agent skill
too young to judge, stay as they are.

One Markdown file per skill, `skills/NN-name.md`, NN its place in the catalogue (the seeded
usage of `timeline` is drawn in that order). A file is a header line
`## folder | origin | born DAYS [| last DAYS | every DAYS]`, the title as `# Title`, then
paragraphs: the description, the introduction, the steps, the pitfalls, and optionally a
pitfall the agent added later (`patched DAYS days ago: ...`); wrapped lines are joined. Days
count back from the demo's "now": `born` is the commit that added the skill, `last` its last
use (none: never used), `every` the mean gap between uses. Support files follow, each as a
`### path` heading over its text fenced by `~~~` lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources

import yaml

AGENT, USER, HUB = "agent", "user", "hub"
PINNED = "latex-beamer-slides"  # idle long enough to archive, but the user pinned it


@dataclass(frozen=True, slots=True)
class DemoSkill:
    folder: str  # category/name
    title: str
    origin: str
    born: int  # days before now it was committed
    last: int | None  # days before now it was last used; None: never used
    every: float  # mean days between uses
    description: str
    intro: str
    steps: tuple[str, ...]
    pitfalls: tuple[str, ...]
    files: Mapping[str, str] = field(default_factory=dict)  # support files: path -> text
    patch: tuple[int, str] | None = None  # (days before now, a pitfall the agent added)

    @property
    def name(self) -> str:
        return self.folder.rsplit("/", 1)[-1]


_HEADER = re.compile(
    r"## (?P<folder>\S+) \| (?P<origin>\w+) \| born (?P<born>\d+)"
    r"(?: \| last (?P<last>\d+) \| every (?P<every>[\d.]+))?"
)
_PATCH = re.compile(r"patched (\d+) days ago: (.*)", re.DOTALL)
_FILE = re.compile(r"^### (?P<path>\S+)\n\n~~~\n(?P<text>.*?)^~~~$", re.DOTALL | re.MULTILINE)


def parse_skill(text: str) -> DemoSkill:
    """The skill one catalogue file describes (the format is in this module's docstring)."""
    entry, _, support = text.partition("\n### ")
    header, title, body = entry.strip().split("\n", 2)
    match = _HEADER.fullmatch(header)
    if match is None or not title.startswith("# "):
        raise ValueError(f"bad catalogue entry {header!r}")
    description, intro, steps, pitfalls, *more = re.split(r"\n\s*\n", body.strip())
    patch = _PATCH.fullmatch(_joined(more[0])) if more else None
    files = {m["path"]: m["text"] for m in _FILE.finditer("### " + support)} if support else {}
    return DemoSkill(
        folder=match["folder"],
        title=title.removeprefix("# "),
        origin=match["origin"],
        born=int(match["born"]),
        last=int(match["last"]) if match["last"] else None,
        every=float(match["every"] or 0),
        description=_joined(description),
        intro=_joined(intro),
        steps=_items(steps, r"\d+\. "),
        pitfalls=_items(pitfalls, r"- "),
        files=files,
        patch=(int(patch[1]), patch[2]) if patch else None,
    )


def _joined(paragraph: str) -> str:
    return " ".join(line.strip() for line in paragraph.splitlines())


def _items(paragraph: str, bullet: str) -> tuple[str, ...]:
    """The items of a numbered or bulleted list whose items may wrap onto indented lines."""
    return tuple(
        _joined(item)
        for item in re.split(rf"^{bullet}", paragraph, flags=re.MULTILINE)
        if item.strip()
    )


def load_catalogue() -> tuple[DemoSkill, ...]:
    """Every skill of the catalogue, in its order."""
    folder = resources.files(__package__) / "skills"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".md")), key=lambda f: f.name)
    return tuple(parse_skill(f.read_text(encoding="utf-8")) for f in files)


SKILLS = load_catalogue()


def skill_md(skill: DemoSkill, patched: bool = False) -> str:
    """The SKILL.md text of `skill` (with the agent's later addition once `patched`)."""
    front = yaml.safe_dump(
        {"name": skill.name, "description": skill.description},
        sort_keys=False,
        allow_unicode=True,
        width=1000,
    )
    pitfalls = list(skill.pitfalls)
    if patched and skill.patch:
        pitfalls.append(skill.patch[1])
    lines = [f"---\n{front}---", "", f"# {skill.title}", ""]
    lines += [skill.intro, "", "## Steps", ""]
    lines += [f"{i}. {step}" for i, step in enumerate(skill.steps, 1)]
    lines += ["", "## Pitfalls", ""] + [f"- {p}" for p in pitfalls]
    references = sorted(p for p in skill.files if p.startswith("references/"))
    if references:
        lines += ["", "## More", ""] + [f"- [{p.split('/')[-1]}]({p})" for p in references]
    return "\n".join(lines) + "\n"

"""Generate a realistic skill library of N skills (families of siblings, categories, support files).

Usage: python bench/make_library.py DIR [--skills N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

CATEGORIES = ["devops", "data", "documents", "research", "productivity", "media", "coding"]
STEMS = [
    "pdf",
    "csv",
    "docker",
    "k8s",
    "git",
    "sql",
    "image",
    "audio",
    "email",
    "slack",
    "notion",
    "arxiv",
    "pandas",
    "terraform",
    "aws",
    "latex",
    "excel",
    "video",
    "http",
    "json",
]
VERBS = [
    "extract",
    "convert",
    "merge",
    "split",
    "render",
    "deploy",
    "debug",
    "query",
    "summarise",
    "clean",
    "validate",
    "migrate",
    "backup",
    "search",
    "format",
    "compare",
    "annotate",
]
WORDS = [
    "the",
    "agent",
    "should",
    "first",
    "check",
    "inputs",
    "then",
    "run",
    "the",
    "tool",
    "carefully",
    "and",
    "verify",
    "the",
    "output",
    "keep",
    "notes",
    "of",
    "failures",
    "retry",
    "with",
    "smaller",
    "batches",
    "when",
    "the",
    "service",
    "rate",
    "limits",
    "prefer",
    "streaming",
    "for",
    "large",
    "files",
    "and",
    "record",
    "what",
    "worked",
]


def skill_text(name: str, rng: random.Random) -> str:
    stem, verb = name.split("-")[0], name.split("-")[1]
    para = " ".join(rng.choice(WORDS) for _ in range(60))
    steps = "\n".join(
        f"{i}. {rng.choice(WORDS).capitalize()} {' '.join(rng.sample(WORDS, 6))}."
        for i in range(1, 8)
    )
    return (
        f"---\nname: {name}\ndescription: {verb.capitalize()} {stem} files and data, "
        f"when a task asks to {verb} {stem} content.\nlicense: MIT\n---\n\n"
        f"# {name}\n\n{para}\n\n## Steps\n\n{steps}\n\n"
        f"See [the reference](references/notes.md) for details.\n"
    )


def make_library(root: Path, count: int, seed: int = 7) -> list[str]:
    """Write `count` skills under root (category/name/SKILL.md + references/notes.md)."""
    rng = random.Random(seed)
    names: list[str] = []
    i = 0
    while len(names) < count:
        stem, verb = STEMS[i % len(STEMS)], VERBS[(i // len(STEMS)) % len(VERBS)]
        name = f"{stem}-{verb}-{i // (len(STEMS) * len(VERBS))}" if i >= 340 else f"{stem}-{verb}"
        i += 1
        folder = root / CATEGORIES[STEMS.index(stem) % len(CATEGORIES)] / name
        (folder / "references").mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(skill_text(name, rng), encoding="utf-8")
        (folder / "references" / "notes.md").write_text(
            f"# Notes for {name}\n\n" + " ".join(rng.sample(WORDS, 20)) + "\n"
        )
        names.append(name)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dir", type=Path)
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    names = make_library(args.dir, args.skills, args.seed)
    print(f"wrote {len(names)} skills under {args.dir}")


if __name__ == "__main__":
    main()

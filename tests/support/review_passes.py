"""A library whose pass, made by `run --consolidate` against the fake OpenAI server, has
everything `review` shows: an archived skill, an umbrella absorbing two siblings and demoting
a third, and a refused plan for another cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gitcurator.lifecycle.catalogue_cost import CatalogueCost
from gitcurator.review.model import Moved, PassReview
from support.fake_openai import FakeOpenAI
from support.repos import git, run_cli, write_skill

EPOCH = "2026-01-01T00:00:00Z"
NOW = "2026-03-01T00:00:00Z"
SHELL = """\
---
name: {name}
description: Convert {what} between formats with ffmpeg on the command line.
---

# {name}

1. Probe the input with `ffprobe -hide_banner {ext_in}` and note its codec and rate.
2. Run `ffmpeg -i in.{ext_in} {flags} out.{ext_out}`; {what} keep their metadata.
3. Check the output plays and compare durations; report both sizes.
Pitfall: variable frame rate {what} drift out of sync; add `-vsync cfr` first.
"""
MEDIA = {
    "ffmpeg-convert-audio": ("audio files", "wav", "-c:a libmp3lame -q:a 2", "mp3"),
    "ffmpeg-convert-video": ("video files", "mov", "-c:v libx264 -crf 20", "mp4"),
    "ffmpeg-convert-subtitles": ("subtitle tracks", "mkv", "-map 0:s:0", "srt"),
}
TERRAFORM = """\
---
name: {name}
description: Fix terraform {what} before applying a plan.
---

# {name}

Run `terraform plan -out plan.bin` and read the {what} it reports; `terraform state list`
shows what the state holds. Repair the {what} and plan again until it is clean.
"""


def media_skill(name: str) -> str:
    """The SKILL.md text of one ffmpeg sibling."""
    what, ext_in, flags, ext_out = MEDIA[name]
    return SHELL.format(name=name, what=what, ext_in=ext_in, flags=flags, ext_out=ext_out)


def build_library(root: Path, monkeypatch: pytest.MonkeyPatch, server: FakeOpenAI) -> Path:
    """Three ffmpeg siblings, two terraform siblings and an idle skill, all agent-made,
    committed at EPOCH and used since; the model at `server`."""
    for name in MEDIA:
        write_skill(root, f"media/{name}", body=media_skill(name))
    for name, what in (("terraform-state-drift", "state drift"), ("terraform-lock", "locks")):
        write_skill(root, f"infra/{name}", body=TERRAFORM.format(name=name, what=what))
    write_skill(root, "kombucha-brewing")
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, EPOCH)
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "skills", cwd=root)
    assert run_cli("init", str(root), "-q").code == 0
    curated = [*MEDIA, "terraform-state-drift", "terraform-lock", "kombucha-brewing"]
    assert run_cli("track", *curated, "--origin", "agent", "-C", str(root)).code == 0
    config = root / ".gitcurator.yaml"
    text = config.read_text().replace("archive_after_days: 90", "archive_after_days: 50")
    settings = {"base_url": server.base_url, "model": "fake-model", "retries": 1}
    text = text.split("llm:")[0] + "llm:\n"
    config.write_text(text + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in settings.items()))
    git("commit", "-qam", "archive sooner; the model", cwd=root)
    for name in curated[:-1]:
        used = run_cli("record", "use", name, "--at", "2026-02-20T00:00:00Z", "-C", str(root))
        assert used.code == 0, used
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var)
    return root


def media_umbrella() -> dict[str, Any]:
    """The model's umbrella for the ffmpeg cluster: two absorbed, subtitles demoted."""
    absorbed = ("ffmpeg-convert-audio", "ffmpeg-convert-video")
    body = "# Converting media with ffmpeg\n\n" + "\n\n".join(
        f"## {n.removeprefix('ffmpeg-convert-')}\n\n" + media_skill(n).split("---\n", 2)[2]
        for n in absorbed
    )
    body += "\n\nSubtitles: [subtitles](references/subtitles.md).\n"
    return {
        "name": "ffmpeg-convert",
        "description": "Convert audio, video or subtitle files between formats with ffmpeg.",
        "body": body,
        "absorb": list(absorbed),
        "demote": [{"skill": "ffmpeg-convert-subtitles", "to": "references/subtitles.md"}],
        "reason": "one tool, one task, three formats",
    }


def lossy_umbrella() -> dict[str, Any]:
    """A plan for the terraform cluster that loses their content: the pass refuses it."""
    return {
        "name": "terraform-repair",
        "description": "Repair terraform problems.",
        "body": "Fix terraform.",
        "absorb": ["terraform-state-drift", "terraform-lock"],
        "demote": [],
        "reason": "both repair terraform",
    }


def answer(request: dict[str, Any]) -> str:
    """The fake model: each cluster's plan by what its request is about."""
    user = request["messages"][-1]["content"]
    umbrella = media_umbrella() if "ffmpeg-convert-audio" in user else lossy_umbrella()
    return json.dumps({"umbrellas": [umbrella], "keep": []})


def consolidated_pass(root: Path) -> dict[str, Any]:
    """Run the pass at NOW; its `run --json` document."""
    result = run_cli("run", "--consolidate", "--json", "--now", NOW, "-C", str(root))
    assert result.code == 0, result
    doc: dict[str, Any] = json.loads(result.out)
    return doc


def make_review(**extra: object) -> PassReview:
    """A PassReview of one archived skill whose name and reason hold a pipe and a newline;
    `extra` replaces fields."""
    fields: dict[str, object] = {
        "run_id": "20260301-000000",
        "branch": "curator/20260301-000000",
        "status": "pending review",
        "now": "2026-03-01T00:00:00Z",
        "base": "b" * 40,
        "tip": "t" * 40,
        "counts_before": {"active": 2},
        "counts_after": {"active": 1, "archived": 1},
        "archived": (Moved("a|b", "x/a|b", "idle\n| 9 days", "unknown", ".archive/x/a|b"),),
        "stale": (),
        "reactivated": (),
        "umbrellas": (),
        "refused": (),
        "left_alone": 0,
        "catalogue_before": CatalogueCost(2, 100, "estimate"),
        "catalogue_after": CatalogueCost(1, 40, "estimate"),
    }
    fields.update(extra)
    return PassReview(**fields)  # type: ignore[arg-type]

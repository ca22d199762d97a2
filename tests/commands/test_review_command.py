"""`gitcurator review`: the demo's pass and an umbrella pass in one screen, as a pull-request
description and as JSON (golden files), and every way a branch can be wrong for it."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI
from support.goldens import check_golden
from support.passes import commit, make_pass
from support.repos import corrupt_note, git, run_cli
from support.review_passes import answer, build_library, consolidated_pass

from gitcurator.curation import token_counter

DEMO_NOW = "2026-11-01T12:00:00Z"
DEMO_RUN = "20261101-120000"
# Long after the agent_repo fixture's commit: its pdf-extract is archived then.
LATER = "2027-06-01T00:00:00Z"


@pytest.fixture(autouse=True)
def estimated_tokens(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The goldens count with the documented estimate, whatever tiktoken has on disk."""
    monkeypatch.setenv("GITCURATOR_TOKENIZER", "estimate")
    token_counter.token_counter.cache_clear()
    yield
    token_counter.token_counter.cache_clear()


def _mask(text: str, root: Path) -> str:
    text = text.replace(str(root), "<DIR>")
    text = re.sub(r"\b[0-9a-f]{40}\b|\b[0-9a-f]{12}\b", "<SHA>", text)
    text = re.sub(r"\b\d{8}-\d{6}\b", "<RUN>", text)
    return re.sub(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\b", "<TIME>", text)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("review") / "demo"
    built = run_cli("demo", str(root), "--now", DEMO_NOW)
    assert built.code == 0, built
    return root


@pytest.fixture
def umbrella_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Path, dict[str, Any]]]:
    with FakeOpenAI() as server:
        server.handler = answer
        root = build_library(tmp_path / "skills", monkeypatch, server)
        yield root, consolidated_pass(root)


def _review(root: Path, *args: str) -> Any:
    result = run_cli("review", *args, "-C", str(root))
    assert result.code == 0, result
    return result


def test_the_demo_pass_in_one_screen(demo: Path) -> None:
    out = _review(demo).out
    check_golden("review-demo.txt", _mask(out, demo))
    assert "catalogue: 32 skills" in out and "→ 28 skills" in out
    assert "docker-registry-login (devops/docker-registry-login → .archive/" in out
    assert f"accept: `gitcurator merge {DEMO_RUN}`" in out


def test_the_demo_pass_as_a_pull_request_description(demo: Path) -> None:
    out = _review(demo, "--markdown").out
    check_golden("review-demo.md", _mask(out, demo))
    assert out.startswith(f"curator: archive 4, mark 6 stale (run {DEMO_RUN})\n")
    assert "| docker-registry-login | `devops/docker-registry-login` →" in out
    assert f"`gitcurator rollback {DEMO_RUN}`" in out


def test_json_holds_what_the_screen_shows(demo: Path) -> None:
    doc = json.loads(_review(demo, "--json").out)
    run = json.loads(
        git("show", f"curator/{DEMO_RUN}:.curator/runs/{DEMO_RUN}/run.json", cwd=demo).stdout
    )
    assert doc["run_id"] == DEMO_RUN and doc["status"] == "pending review"
    assert doc["counts"]["before"] == run["counts"]["before"]
    assert doc["counts"]["after"] == run["counts"]["after"]
    assert (doc["counts"]["live_before"], doc["counts"]["live_after"]) == (32, 28)
    archived = {t["skill"] for t in run["transitions"] if t["to"] == "archived"}
    assert {a["skill"] for a in doc["archived"]} == archived
    login = next(a for a in doc["archived"] if a["skill"] == "docker-registry-login")
    assert login["last_activity"] == "2026-07-23"
    lfs = next(a for a in doc["archived"] if a["skill"] == "git-lfs-migrate")
    assert lfs["last_activity"] == "never used (created 2026-05-17)"
    assert len(doc["stale"]) == 6 and doc["umbrellas"] == [] and doc["refused"] == []
    before, after = doc["catalogue"]["before"], doc["catalogue"]["after"]
    assert (before["skills"], after["skills"]) == (32, 28)
    assert after["tokens"] < before["tokens"] and before["tokenizer"] == "estimate"
    assert doc["base_commit"] == run["base_commit"]


def test_an_umbrella_with_what_it_absorbed_kept_and_demoted_where(
    umbrella_pass: tuple[Path, dict[str, Any]],
) -> None:
    root, ran = umbrella_pass
    out = _review(root).out
    check_golden("review-umbrella.txt", _mask(out, root))
    assert "ffmpeg-convert (new media/ffmpeg-convert): one tool, one task, three formats" in out
    assert "absorbs: ffmpeg-convert-audio 100%, ffmpeg-convert-video 100%" in out
    assert "ffmpeg-convert-subtitles 100% → media/ffmpeg-convert/references/subtitles.md" in out
    assert "refused (1)" in out and "loses content" in out
    doc = json.loads(_review(root, "--json").out)
    [umbrella] = doc["umbrellas"]
    assert umbrella["commit"] == ran["consolidations"][0]["commit"]
    demoted = [f for f in umbrella["folded"] if f["demoted_to"]]
    assert demoted == [
        {
            "skill": "ffmpeg-convert-subtitles",
            "retention": 1.0,
            "demoted_to": "media/ffmpeg-convert/references/subtitles.md",
        }
    ]
    assert doc["refused"][0]["what"] == "umbrella terraform-repair (terraform)"
    # kombucha-brewing archived, three skills folded, one umbrella: 6 live skills become 3.
    assert (doc["catalogue"]["before"]["skills"], doc["catalogue"]["after"]["skills"]) == (6, 3)
    check_golden("review-umbrella.md", _mask(_review(root, "--markdown").out, root))


def test_the_umbrella_diff_is_against_the_absorbed_bodies_at_the_base(
    umbrella_pass: tuple[Path, dict[str, Any]],
) -> None:
    root, _ = umbrella_pass
    out = _review(root, "--diff").out  # captured: no pager, no colour
    assert "\x1b[" not in out
    assert "+++ b/media/ffmpeg-convert/SKILL.md" in out
    umbrella = out.split("umbrella media/ffmpeg-convert/SKILL.md against", 1)[1].split(
        "diff --git", 1
    )[0]
    # The bodies (not the frontmatter) of the absorbed skills are the old side: the umbrella's
    # frontmatter is new, the steps it kept are context.
    assert "+name: ffmpeg-convert\n" in umbrella
    assert "-name: ffmpeg-convert-audio" not in umbrella
    assert "\n 2. Run `ffmpeg -i in.wav -c:a libmp3lame -q:a 2 out.mp3`" in umbrella
    assert "subtitles" not in umbrella.split("\n+Subtitles:")[0].split("+++")[0]
    # Every other change as git shows it: the moves, the demoted file, the report.
    assert "rename from media/ffmpeg-convert-audio/SKILL.md" in out
    assert "rename to .archive/media/ffmpeg-convert-audio/SKILL.md" in out
    assert "+++ b/media/ffmpeg-convert/references/subtitles.md" in out
    assert "rename from kombucha-brewing/SKILL.md" in out
    assert "+# Curator pass" in out
    doc = json.loads(_review(root, "--diff", "--json").out)
    assert "rename from kombucha-brewing/SKILL.md" in doc["diff"]


def test_a_named_run_and_its_branch_name_both_work(demo: Path) -> None:
    by_id = _review(demo, DEMO_RUN).out
    assert _review(demo, f"curator/{DEMO_RUN}").out == by_id == _review(demo).out


def test_stored_catalogue_figures_are_used_as_stored(agent_repo: Path) -> None:
    doc = _run_json(agent_repo)
    doc["catalogue"] = {
        "before": {"skills": 7, "tokens": 700, "tokenizer": "o200k_base"},
        "after": {"skills": 6, "tokens": 600, "tokenizer": "o200k_base"},
    }
    _pass_with(agent_repo, doc)
    out = _review(agent_repo).out
    assert "catalogue: 7 skills, 700 tokens → 6 skills, 600 tokens (−14%) (o200k_base)" in out


# -- what is wrong -------------------------------------------------------------------------


def test_no_pending_pass_says_how_to_make_one(repo: Path) -> None:
    result = run_cli("review", "-C", str(repo))
    assert result.code == 1
    assert "no curator pass is waiting for review" in result.err
    assert "gitcurator run" in result.err


def test_a_merged_or_rolled_back_pass_is_not_pending_but_can_be_named(agent_repo: Path) -> None:
    run = run_cli("run", "--json", "-C", str(agent_repo), "--now", LATER)
    assert run.code == 0, run
    run_id = json.loads(run.out)["run_id"]
    assert run_cli("merge", "-C", str(agent_repo)).code == 0
    assert "no curator pass is waiting" in run_cli("review", "-C", str(agent_repo)).err
    named = _review(agent_repo, run_id)
    assert f"pass {run_id} at {LATER}: merged (fast-forward) on curator/{run_id}" in named.out
    assert "pdf-extract (pdf-extract → .archive/pdf-extract)" in named.out
    assert "rename from pdf-extract/SKILL.md" in _review(agent_repo, run_id, "--diff").out
    assert run_cli("rollback", run_id, "-C", str(agent_repo)).code == 0
    undone = _review(agent_repo, run_id).out
    assert f"pass {run_id} at {LATER}: rolled back on curator/{run_id}" in undone
    assert "it was rolled back: `gitcurator log` says when" in undone


def test_an_unknown_run_lists_the_known_ones(demo: Path) -> None:
    result = run_cli("review", "20990101-000000", "-C", str(demo))
    assert result.code == 1
    assert "no curator branch curator/20990101-000000" in result.err
    assert f"known runs: {DEMO_RUN}" in result.err


def test_outside_a_repository_says_so(tmp_path: Path) -> None:
    result = run_cli("review", "-C", str(tmp_path))
    assert result.code == 1 and "is not inside a skills repository" in result.err


def test_a_git_repository_that_is_no_skills_repository_says_so(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    result = run_cli("review", "-C", str(tmp_path))
    assert result.code == 1
    assert "is not a skills repository" in result.err and "gitcurator init" in result.err


def test_markdown_with_diff_or_json_is_a_usage_error(demo: Path) -> None:
    for extra in ("--diff", "--json"):
        result = run_cli("review", "--markdown", extra, "-C", str(demo))
        assert result.code == 2, result


def _run_json(repo: Path) -> dict[str, Any]:
    run = run_cli("run", "--dry-run", "--json", "-C", str(repo), "--now", LATER)
    assert run.code == 0, run
    dry = json.loads(run.out)
    doc = {
        "version": 1,
        "run_id": "20270101-000000",
        "branch": "curator/20270101-000000",
        "now": "2027-01-01T00:00:00Z",
        "thresholds": {"stale_after_days": 30, "archive_after_days": 90, "min_age_days": 7},
        "counts": {"before": {"active": 1}, "after": {"archived": 1}},
        "transitions": dry["transitions"],
        "skipped": [],
    }
    for t in doc["transitions"]:
        t["archived_path"] = f".archive/{t['path']}"
    return doc


def _pass_with(repo: Path, doc: dict[str, Any], run_id: str = "20270101-000000") -> str:
    """A pass made with git (support.passes) whose run.json is then replaced by `doc`."""
    make_pass(repo, run_id)
    git("checkout", "-q", f"curator/{run_id}", cwd=repo)
    (repo / f".curator/runs/{run_id}/run.json").write_text(json.dumps(doc))
    tip = commit(repo, f"curator: report for run {run_id}\n\nCurator-Run: {run_id}")
    git("checkout", "-q", "main", cwd=repo)
    return tip


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("{not json", "is not JSON"),
        ('{"run_id": "20270101-000000"}', "does not match the run-report schema"),
        ("[" * 100_000, "is not JSON"),
    ],
)
def test_a_corrupt_run_json_is_named_never_an_internal_error(
    agent_repo: Path, content: str, said: str
) -> None:
    run_id = "20270101-000000"
    make_pass(agent_repo, run_id)
    git("checkout", "-q", f"curator/{run_id}", cwd=agent_repo)
    (agent_repo / f".curator/runs/{run_id}/run.json").write_text(content)
    git("commit", "-qam", f"damage\n\nCurator-Run: {run_id}", cwd=agent_repo)
    git("checkout", "-q", "main", cwd=agent_repo)
    result = run_cli("review", "-C", str(agent_repo))
    assert result.code == 1, result
    assert f".curator/runs/{run_id}/run.json on curator/{run_id}" in result.err
    assert said in result.err


def test_a_branch_without_a_report_is_named(agent_repo: Path) -> None:
    git("checkout", "-q", "-b", "curator/20270101-000000", cwd=agent_repo)
    (agent_repo / "stray.txt").write_text("x\n")
    git("add", "stray.txt", cwd=agent_repo)
    commit(agent_repo, "a stray commit")
    git("checkout", "-q", "main", cwd=agent_repo)
    result = run_cli("review", "-C", str(agent_repo))
    assert result.code == 1, result
    assert "curator/20270101-000000 holds no .curator/runs/20270101-000000/run.json" in result.err


def test_the_report_of_another_run_is_named(agent_repo: Path) -> None:
    doc = _run_json(agent_repo)
    doc["run_id"] = "20260101-000000"
    _pass_with(agent_repo, doc)
    result = run_cli("review", "-C", str(agent_repo))
    assert result.code == 1, result
    assert "is the report of run '20260101-000000', not 20270101-000000" in result.err


def test_a_crafted_branch_is_shown_with_the_refusal_merge_would_give(agent_repo: Path) -> None:
    doc = _run_json(agent_repo)
    _pass_with(agent_repo, doc)
    # Someone adds a deletion to the pass's branch: review shows it, and says merge refuses.
    git("checkout", "-q", "curator/20270101-000000", cwd=agent_repo)
    git("rm", "-rq", "devops", cwd=agent_repo)
    git("commit", "-qm", "sneak\n\nCurator-Run: 20270101-000000", cwd=agent_repo)
    git("checkout", "-q", "main", cwd=agent_repo)
    result = run_cli("review", "--diff", "-C", str(agent_repo))
    assert result.code == 0, result
    assert "would be refused by `gitcurator merge`" in result.err
    assert "deleted file" in result.out and "sneak" in result.out


def test_binary_files_and_submodules_on_a_branch_are_named_not_read(agent_repo: Path) -> None:
    _pass_with(agent_repo, _run_json(agent_repo))
    git("checkout", "-q", "curator/20270101-000000", cwd=agent_repo)
    (agent_repo / "devops/blob.bin").write_bytes(b"\x00\x01binary")
    (agent_repo / "devops/huge.md").write_text("x" * (2 << 20))
    git("add", "devops", cwd=agent_repo)
    sha = git("rev-parse", "HEAD", cwd=agent_repo).stdout.strip()
    git("update-index", "--add", "--cacheinfo", f"160000,{sha},vendored", cwd=agent_repo)
    git("commit", "-qm", "odd files\n\nCurator-Run: 20270101-000000", cwd=agent_repo)
    git("checkout", "-q", "main", cwd=agent_repo)
    result = run_cli("review", "--diff", "-C", str(agent_repo))
    assert result.code == 0, result
    assert "Binary files a/devops/blob.bin and b/devops/blob.bin differ" in result.out
    assert "Files a/devops/huge.md and b/devops/huge.md differ, not shown: over 1 MB" in result.out
    assert f"+Subproject commit {sha}" in result.out
    assert "would be refused by `gitcurator merge`" in result.err


def test_an_umbrella_merged_into_a_sibling_is_diffed_against_its_own_body_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.review_passes import MEDIA, media_skill

    names = list(MEDIA)
    into = {
        "name": names[0],
        "description": "Convert audio, video or subtitle files between formats with ffmpeg.",
        "body": "\n\n".join(media_skill(n).split("---\n", 2)[2] for n in names),
        "absorb": names[1:],
        "demote": [],
        "reason": "the audio skill already does most of it",
    }
    with FakeOpenAI() as server:
        server.handler = lambda request: json.dumps(
            {"umbrellas": [into] if "ffmpeg" in request["messages"][-1]["content"] else []}
            | {"keep": []}
        )
        root = build_library(tmp_path / "skills", monkeypatch, server)
        consolidated_pass(root)
    out = _review(root).out
    assert f"{names[0]} (merged into the existing media/{names[0]})" in out
    diff = _review(root, "--diff").out
    header = f"umbrella media/{names[0]}/SKILL.md against what it absorbed: "
    assert header + " + ".join(f"media/{n}/SKILL.md" for n in names) in diff
    umbrella = diff.split(header, 1)[1].split("diff --git", 1)[0]
    # Everything the three bodies said is kept: only the frontmatter is new.
    removed = [line for line in umbrella.splitlines()[3:] if line.startswith("-")]
    assert removed == [], removed
    assert "+description: Convert audio, video or subtitle files" in umbrella


def test_escape_sequences_in_a_stored_report_never_reach_the_terminal_raw(
    agent_repo: Path,
) -> None:
    doc = _run_json(agent_repo)
    doc["transitions"][0]["reason"] = "idle \x1b]0;owned\x07 \x1b[2J days"
    doc["refused"] = [{"what": "umbrella \x1b[31mred", "reason": "x | y\nz"}]
    _pass_with(agent_repo, doc)
    for args in ((), ("--markdown",), ("--diff",)):
        result = run_cli("review", *args, "-C", str(agent_repo))
        assert result.code == 0, result
        assert "\x1b" not in result.out and "\x07" not in result.out, args
        # In the description the `]` is escaped too (Markdown), then the control characters.
        said = "\\x1b\\]0;owned\\x07" if args == ("--markdown",) else "\\x1b]0;owned\\x07"
        assert said in result.out, args


def test_a_corrupt_usage_note_does_not_stop_the_review_of_an_umbrella_pass(
    umbrella_pass: tuple[Path, dict[str, Any]],
) -> None:
    root, _ = umbrella_pass
    corrupt_note(root, "ffmpeg-convert-audio", "{not json")
    result = run_cli("review", "--diff", "-C", str(root))
    assert result.code == 0, result
    assert "umbrellas (1)" in result.out
    # Its record unreadable, the skill counts as not curated: merge would refuse, and says so.
    assert "would be refused by `gitcurator merge`" in result.err


def test_a_broken_skill_md_at_the_base_still_counts_in_the_catalogue(agent_repo: Path) -> None:
    (agent_repo / "devops/broken").mkdir(parents=True)
    (agent_repo / "devops/broken/SKILL.md").write_text("---\nname: [unclosed\n")
    commit(agent_repo, "a broken skill")
    _pass_with(agent_repo, _run_json(agent_repo))
    doc = json.loads(_review(agent_repo, "--json").out)
    before, after = doc["catalogue"]["before"], doc["catalogue"]["after"]
    assert before["skills"] == after["skills"] + 1  # pdf-extract archived; broken counted


def test_a_run_json_too_big_for_a_pass_is_refused_at_once(agent_repo: Path) -> None:
    doc = _run_json(agent_repo)
    one = doc["transitions"][0]
    doc["transitions"] = [one] * (17 * 1024 * 1024 // len(json.dumps(one)) + 1)
    _pass_with(agent_repo, doc)
    result = run_cli("review", "-C", str(agent_repo))
    assert result.code == 1, result
    assert "run.json on curator/20270101-000000 is 17 MB, over the 16 MB a pass writes" in (
        result.err
    )


def test_a_report_breaking_the_schema_a_thousand_ways_is_named_briefly(agent_repo: Path) -> None:
    doc = _run_json(agent_repo)
    doc["transitions"] = [{"skill": f"s{i}"} for i in range(1000)]
    _pass_with(agent_repo, doc)
    result = run_cli("review", "-C", str(agent_repo))
    assert result.code == 1, result
    assert "does not match the run-report schema: at transitions.0:" in result.err
    assert "and 2995 more" in result.err and len(result.err) < 2000


@pytest.mark.parametrize("what", ["tree", "tag"])
def test_a_curator_ref_that_is_no_commit_is_named_with_how_to_drop_it(
    agent_repo: Path, what: str
) -> None:
    if what == "tag":
        git("tag", "-a", "-m", "a tag", "v1", cwd=agent_repo)
    target = git("rev-parse", "HEAD^{tree}" if what == "tree" else "v1", cwd=agent_repo).stdout
    # git refuses to point a branch at anything but a commit; a fetch or a hand may not.
    ref = agent_repo / ".git/refs/heads/curator/20270101-000000"
    ref.parent.mkdir(parents=True, exist_ok=True)
    ref.write_text(target)
    result = run_cli("review", "-C", str(agent_repo))
    assert result.code == 1, result
    assert f"curator/20270101-000000 points at no commit ({target[:12]} is not a commit)" in (
        result.err
    )
    assert "git update-ref -d refs/heads/curator/20270101-000000" in result.err


def test_merge_s_refusal_is_in_the_description_and_the_json_not_only_on_stderr(
    agent_repo: Path,
) -> None:
    _pass_with(agent_repo, _run_json(agent_repo))
    # `_pass_with` adds a commit no pass writes: merge refuses the branch.
    said = "curator/20270101-000000 would be refused by `gitcurator merge`: commit "
    described = run_cli("review", "--markdown", "-C", str(agent_repo))
    assert described.code == 0, described
    assert "\n> **Warning:** " + said.replace("`gitcurator merge`", "\\`gitcurator merge\\`") in (
        described.out
    )
    doc = json.loads(_review(agent_repo, "--json").out)
    assert doc["merge_refusal"].startswith(said)
    screen = _review(agent_repo).out
    assert "accept:" not in screen and "`gitcurator merge` refuses this branch" in screen
    demo_doc = json.loads(_review(agent_repo, "--json").out)
    assert set(demo_doc) >= {"run_id", "status", "counts", "catalogue", "merge_refusal"}


def test_of_several_pending_passes_review_shows_the_one_merge_merges(agent_repo: Path) -> None:
    newest = "20270101-000000-2"  # a collision suffix counts after the time
    for run_id in ("20270101-000000", newest, "20261231-235959"):
        make_pass(agent_repo, run_id, folders=())
    reviewed = run_cli("review", "--json", "-C", str(agent_repo))
    # support.passes writes a short run.json: review names it as the report it reads.
    assert f"run.json on curator/{newest} does not match" in reviewed.err, reviewed
    merged = run_cli("merge", "-C", str(agent_repo))
    assert merged.code == 0, merged
    assert f"merged curator/{newest} into main" in merged.out


def test_a_report_lying_about_its_umbrella_is_shown_never_an_internal_error(
    umbrella_pass: tuple[Path, dict[str, Any]],
) -> None:
    root, ran = umbrella_pass
    branch, path = f"curator/{ran['run_id']}", f".curator/runs/{ran['run_id']}/run.json"
    doc = json.loads(git("show", f"{branch}:{path}", cwd=root).stdout)
    lie = doc["consolidations"][0]
    lie |= {"path": "../../etc", "absorbed": ["ghost", "../x", "a|b\n"], "retention": {"x": 9}}
    git("checkout", "-q", branch, cwd=root)
    (root / path).write_text(json.dumps(doc))
    git("commit", "-qam", f"lie\n\nCurator-Run: {ran['run_id']}", cwd=root)
    git("checkout", "-q", "main", cwd=root)
    for args in ((), ("--diff",), ("--markdown",), ("--json",)):
        result = run_cli("review", *args, "-C", str(root))
        assert result.code == 0, (args, result)
        assert "would be refused by `gitcurator merge`" in result.err
    assert "absorbs: ghost, ../x, a|b\\x0a" in run_cli("review", "-C", str(root)).out


def test_one_big_blob_at_many_paths_is_read_only_up_to_the_diffs_budget(
    agent_repo: Path,
) -> None:
    _pass_with(agent_repo, _run_json(agent_repo))
    git("checkout", "-q", "curator/20270101-000000", cwd=agent_repo)
    (agent_repo / "big.md").write_text("a line of text\n" * 60_000)  # 900 kB
    blob = git("hash-object", "-w", "big.md", cwd=agent_repo).stdout.strip()
    (agent_repo / "big.md").unlink()
    for i in range(60):  # 54 MB of diff from one 900 kB object
        git("update-index", "--add", "--cacheinfo", f"100644,{blob},copies/{i}.md", cwd=agent_repo)
    git("commit", "-qm", "copies\n\nCurator-Run: 20270101-000000", cwd=agent_repo)
    git("checkout", "-q", "main", cwd=agent_repo)
    result = run_cli("review", "--diff", "-C", str(agent_repo))
    assert result.code == 0, result
    assert len(result.out) < 40 << 20
    assert (
        "Files a/copies/59.md and b/copies/59.md differ, not shown: the diffs shown reached 32 MB"
        in (result.out)
    )


def test_a_skill_whose_object_a_fetch_did_not_bring_is_named_never_an_internal_error(
    agent_repo: Path,
) -> None:
    tip = _pass_with(agent_repo, _run_json(agent_repo))
    missing = "1234567890" * 4

    def mktree(listing: str) -> str:
        made = subprocess.run(
            ["git", "mktree", "--missing"],
            input=listing,
            cwd=agent_repo,
            capture_output=True,
            text=True,
            check=True,
        )
        return made.stdout.strip()

    folder = mktree(f"100644 blob {missing}\tSKILL.md\n")
    root = mktree(git("ls-tree", tip, cwd=agent_repo).stdout + f"040000 tree {folder}\tghost\n")
    message = "ghost\n\nCurator-Run: 20270101-000000"
    ghost = git("commit-tree", root, "-p", tip, "-m", message, cwd=agent_repo).stdout.strip()
    git("update-ref", "refs/heads/curator/20270101-000000", ghost, cwd=agent_repo)
    for args in ((), ("--json",), ("--markdown",)):
        assert run_cli("review", *args, "-C", str(agent_repo)).code == 0, args
    diff = _review(agent_repo, "--diff").out
    assert f"differ, not shown: its object {missing[:12]} is not in this repository" in diff


def test_an_absorbed_skill_whose_object_is_gone_is_left_out_of_the_umbrella_diff(
    umbrella_pass: tuple[Path, dict[str, Any]],
) -> None:
    root, _ = umbrella_pass
    blob = git("rev-parse", "main:media/ffmpeg-convert-audio/SKILL.md", cwd=root).stdout.strip()
    (root / ".git/objects" / blob[:2] / blob[2:]).unlink()  # loose, as the pass wrote it
    result = run_cli("review", "--diff", "-C", str(root))
    assert result.code == 0, result
    assert f"could not be checked as `gitcurator merge` checks it: object {blob[:12]}" in (
        result.err
    )
    # The umbrella is diffed against what is left of what it absorbed.
    assert "against what it absorbed: media/ffmpeg-convert-video/SKILL.md\n" in result.out


# `curator/20271301-999999` has a run id's shape but no real time: it sorted as the newest too.
@pytest.mark.parametrize("hand_made", ["curator/zzz", "curator/20271301-999999"])
def test_a_branch_named_like_no_run_is_never_picked_unnamed(
    agent_repo: Path, hand_made: str
) -> None:
    # Before: `curator/zzz` sorted as the newest and stopped review and merge until deleted.
    make_pass(agent_repo, "20270101-000000", folders=())
    git("commit", "-q", "--allow-empty", "-m", "hand-made", cwd=agent_repo)
    git("branch", "-f", hand_made, "HEAD", cwd=agent_repo)
    git("reset", "-q", "--hard", "HEAD~1", cwd=agent_repo)
    reviewed = run_cli("review", "--json", "-C", str(agent_repo))
    assert hand_made not in reviewed.out + reviewed.err, reviewed
    merged = run_cli("merge", "-C", str(agent_repo))
    assert merged.code == 0, merged
    assert "merged curator/20270101-000000 into main" in merged.out


def test_merge_of_a_branch_whose_objects_are_missing_says_so_never_exit_3(
    umbrella_pass: tuple[Path, dict[str, Any]],
) -> None:
    root, _ = umbrella_pass
    blob = git("rev-parse", "main:media/ffmpeg-convert-audio/SKILL.md", cwd=root).stdout.strip()
    (root / ".git/objects" / blob[:2] / blob[2:]).unlink()
    before = git("rev-parse", "main", cwd=root).stdout
    merged = run_cli("merge", "-C", str(root))
    assert merged.code == 1, merged
    assert f"it could not be checked, since object {blob[:12]} is not in this repository" in (
        merged.err
    )
    assert git("rev-parse", "main", cwd=root).stdout == before

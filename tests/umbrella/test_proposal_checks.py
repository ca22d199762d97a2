"""The pure parts of the umbrella pass: names, retention, the prompt, one umbrella's checks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gitcurator.skills.document import parse_skill_md
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.clusters import Cluster
from gitcurator.umbrella.names import umbrella_name_problem
from gitcurator.umbrella.paths import rehomed_path
from gitcurator.umbrella.prompt import SYSTEM_PROMPT, cluster_message, excerpt
from gitcurator.umbrella.proposal_checks import Context, Member, Refused, check_umbrella
from gitcurator.umbrella.retention import retention, units

# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "pdf-tools",
        "bug-triage",
        "jira-automation",
        "pr-review",
        "github-pr-review",
        "issue-templates",
        "kubernetes-debugging",
        "s3-uploads",
        "ec2-networking",
        "utf8-text",
    ],
)
def test_class_level_names_pass(name: str) -> None:
    assert umbrella_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("fix-login-flow", "one-off"),
        ("debug-ci-flake", "one-off"),
        ("tmp-pdf", "one-off"),
        ("pdf-tools-v2", "a copy or a version"),
        ("pdf-tools-copy", "a copy or a version"),
        ("ci-issue-4211", "names a ticket"),
        ("deploy-pr-77", "names a ticket (pr-77)"),
        ("jira-12", "names a ticket (jira-12)"),
        ("release-2026-03-01", "a date or a number"),
        ("oncall-20260301", "a date or a number"),
        ("sync-4211", "a date or a number"),
        ("PDF-Tools", "lowercase"),
        ("pdf--tools", "consecutive hyphens"),
        ("x" * 65, "64 character"),
    ],
)
def test_session_artifacts_and_bad_names_are_refused(name: str, why: str) -> None:
    problem = umbrella_name_problem(name)
    assert problem is not None and why in problem, problem


# -- retention -------------------------------------------------------------------------------

SOURCE = """Open the PDF with pdfplumber and walk every page. Call extract_tables on each page,
write each table as CSV under out/, and report the count. Scanned PDFs hold no text layer:
run ocrmypdf with force-ocr first, then extract again. Camelot lattice mode reads ruled
tables better than pdfplumber for invoices."""


def test_a_verbatim_copy_keeps_everything_and_a_summary_little() -> None:
    assert retention(SOURCE, [SOURCE]) == 1.0
    assert retention(SOURCE, ["Intro.", SOURCE, "Outro."]) == 1.0
    assert retention(SOURCE, ["Extracts tables from PDF files."]) < 0.2


def test_retention_grows_with_what_is_kept() -> None:
    sentences = SOURCE.split(". ")
    kept = [retention(SOURCE, [". ".join(sentences[:n])]) for n in range(len(sentences) + 1)]
    assert kept == sorted(kept)
    assert kept[0] == 0.0 and kept[-1] == 1.0


def test_rewording_around_the_instructions_is_tolerated() -> None:
    reworded = SOURCE.replace("Open the", "First, open the").replace("and report", "; report")
    assert retention(SOURCE, [reworded]) > 0.9


def test_the_family_vocabulary_alone_is_not_retention() -> None:
    vocabulary = " ".join(sorted({w for w in SOURCE.lower().split() if w.isalpha()}))
    assert retention(SOURCE, [vocabulary]) < 0.5


def test_pairs_do_not_span_two_kept_texts() -> None:
    assert "walk page" in units(SOURCE)
    assert retention("alpha beta", ["alpha", "beta"]) == 1.0  # short: judged by words
    long = " ".join(f"w{i}x" for i in range(20))
    halves = long.split(" ")
    split = [" ".join(halves[:10]), " ".join(halves[10:])]
    assert retention(long, split) < 1.0  # the pair across the cut is in neither


def test_an_empty_skill_has_nothing_to_lose() -> None:
    assert retention("", ["anything"]) == 1.0


# -- the prompt ------------------------------------------------------------------------------


def _candidate(name: str, body: str = "", files: tuple[str, ...] = ()) -> Candidate:
    return Candidate(name, f"documents/{name}", f"Use for {name}.", body or SOURCE, files, 3)


def test_each_member_is_sent_once_with_where_its_files_go() -> None:
    members = {
        "pdf-a": _candidate("pdf-a", files=("scripts/run.py", "notes.txt")),
        "pdf-b": _candidate("pdf-b"),
    }
    text = cluster_message(Cluster(("pdf-a", "pdf-b"), "pdf"), members)
    assert text.count("## pdf-a") == 1 and text.count("## pdf-b") == 1
    assert text.count("Open the PDF with pdfplumber") == 2
    assert "- scripts/run.py -> scripts/pdf-a/run.py" in text
    assert "- notes.txt -> references/pdf-a/notes.txt" in text
    assert "used: 3 times" in text
    assert "class-level" in SYSTEM_PROMPT and "references/" in SYSTEM_PROMPT


def test_long_bodies_are_sent_as_marked_excerpts_within_the_budget() -> None:
    long = "start " + "x" * 20_000 + " end"
    members = {n: _candidate(n, body=long) for n in ("pdf-a", "pdf-b")}
    text = cluster_message(Cluster(("pdf-a", "pdf-b"), "pdf"), members, budget=8_000)
    assert len(text) < 2 * 4_000 + 1_000
    assert text.count("body (excerpt: demote rather than absorb):") == 2
    assert "start" in text and "end" in text and "characters omitted" in text
    short, cut = excerpt("short", 100)
    assert (short, cut) == ("short", False)


def test_rehomed_paths_keep_the_kind_of_folder() -> None:
    assert rehomed_path("pdf-a", "scripts/x/y.sh") == "scripts/pdf-a/x/y.sh"
    assert rehomed_path("pdf-a", "templates/t.md") == "templates/pdf-a/t.md"
    assert rehomed_path("pdf-a", "README") == "references/pdf-a/README"
    assert rehomed_path("pdf-a", "lib/code.py") == "references/pdf-a/lib/code.py"


# -- one umbrella ----------------------------------------------------------------------------

BLOBS: dict[bytes, bytes] = {}


def _blob(data: bytes) -> bytes:
    key = b"%040d" % len(BLOBS)
    BLOBS[key] = data
    return key


def _member(name: str, extra: dict[str, tuple[bytes, int]] | None = None) -> Member[bytes]:
    text = f"---\nname: {name}\ndescription: Use for {name}.\n---\n\n{SOURCE}\nTopic {name}.\n"
    doc = parse_skill_md(text.encode())
    files = {"SKILL.md": (_blob(text.encode()), 0o100644), **(extra or {})}
    candidate = Candidate(name, f"documents/{name}", f"Use for {name}.", doc.body, tuple(files))
    return Member(candidate, doc.frontmatter, files)


def _setup(**extra: Any) -> tuple[Cluster, dict[str, Member[bytes]], Context[bytes]]:
    script = (_blob(b"#!/bin/sh\necho hi\n"), 0o100755)
    notes = (_blob(b"# notes\n\nSee [run](../scripts/run.sh).\n"), 0o100644)
    members = {
        "pdf-a": _member("pdf-a", {"scripts/run.sh": script, "references/notes.md": notes}),
        "pdf-b": _member("pdf-b"),
        "pdf-c": _member("pdf-c"),
    }
    paths = frozenset(f"{m.folder}/{p}" for m in members.values() for p in m.files)
    ctx: Context[bytes] = Context(
        live={**{n: m.folder for n, m in members.items()}, "pdf-mine": "documents/pdf-mine"},
        ineligible={"pdf-mine": "origin user: only agent-made skills are curated"},
        paths=paths | {"documents/pdf-mine/SKILL.md"},
        load=BLOBS.__getitem__,
        min_retention=0.5,
        **extra,
    )
    return Cluster(tuple(members), "pdf"), members, ctx


def _proposal(**overrides: Any) -> dict[str, Any]:
    proposal = {
        "name": "pdf-tools",
        "description": "Work with PDF files: tables, pages, OCR.",
        "body": f"# PDF tools\n\n{SOURCE}\n\nRun [run.sh](scripts/run.sh).\n",
        "absorb": ["pdf-a", "pdf-b", "pdf-c"],
        "demote": [],
        "reason": "one class of task",
    }
    proposal.update(overrides)
    return proposal


def test_a_good_umbrella_becomes_writes_copies_and_retired_folders() -> None:
    cluster, members, ctx = _setup()
    umbrella = check_umbrella(_proposal(), cluster, members, ctx)
    assert umbrella.folder == "documents/pdf-tools"
    assert umbrella.archived == {
        f"documents/{n}": f".archive/documents/{n}" for n in ("pdf-a", "pdf-b", "pdf-c")
    }
    # The script is copied whole, mode and blob kept; the old link is re-pointed.
    assert umbrella.copies == {
        "documents/pdf-tools/scripts/pdf-a/run.sh": members["pdf-a"].files["scripts/run.sh"]
    }
    # A Markdown support file one folder deeper gets its links re-pointed, as new content.
    notes = umbrella.writes["documents/pdf-tools/references/pdf-a/notes.md"].decode()
    assert "](../../scripts/pdf-a/run.sh)" in notes
    skill_md = umbrella.writes["documents/pdf-tools/SKILL.md"].decode()
    assert "](scripts/pdf-a/run.sh)" in skill_md
    assert parse_skill_md(skill_md.encode()).frontmatter == {
        "name": "pdf-tools",
        "description": "Work with PDF files: tables, pages, OCR.",
    }
    assert set(umbrella.retention) == {"pdf-a", "pdf-b", "pdf-c"}
    assert all(r > 0.9 for r in umbrella.retention.values())


REFUSALS = {
    "user skill": ({"absorb": ["pdf-a", "pdf-mine"]}, "pdf-mine may not be folded: origin user"),
    "user umbrella": ({"name": "pdf-mine"}, "existing skill that may not be rewritten"),
    "unknown": ({"absorb": ["pdf-a", "ghost"]}, "no skill 'ghost'"),
    "twice": (
        {"absorb": ["pdf-a", "pdf-b"], "demote": [{"skill": "pdf-b", "to": "references/b.md"}]},
        "names a skill twice: pdf-b",
    ),
    "nothing": ({"absorb": ["pdf-tools"]}, "folds no skill"),
    "dotdot": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "references/../../x.md"}]},
        "is not a plain path inside the umbrella folder",
    ),
    "absolute": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "/etc/passwd"}]},
        "is not a plain path inside the umbrella folder",
    ),
    "scripts": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "scripts/b.sh"}]},
        "never scripts/",
    ),
    "overwrite": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "references/pdf-a/notes.md"}]},
        "would overwrite a file of the umbrella",
    ),
    "file where a folder goes": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "references/pdf-a"}]},
        "is a file where",
    ),
    "dot-git": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "references/.git/hooks/x"}]},
        "no leading dot",
    ),
    "too long": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "references/" + "x" * 300}]},
        "is not a plain path",
    ),
    "case twin": (
        {"absorb": ["pdf-a"], "demote": [{"skill": "pdf-b", "to": "references/PDF-A/Notes.md"}]},
        "differ only in case",
    ),
    "long description": ({"description": "d" * 1100}, "over the 1024"),
    "user name in another case": ({"name": "pdf-Mine"}, "lowercase"),
    "user name in full-width letters": ({"name": "ｐｄｆ-mine"}, "NFKC"),
    "invisible folder name": ({"name": "venv"}, "never looked for"),
    "lossy": ({"body": "PDF things."}, "loses content: it keeps"),
    "secret": (
        {"body": f"{SOURCE}\nkey: AKIAIOSFODNN7EXAMPLF\n"},
        "would not validate",
    ),
    "bad name": ({"name": "fix-pdf"}, "one-off"),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_umbrellas_breaking_a_rule_are_refused_with_the_reason(case: str) -> None:
    overrides, reason = REFUSALS[case]
    cluster, members, ctx = _setup()
    with pytest.raises(Refused) as caught:
        check_umbrella(_proposal(**overrides), cluster, members, ctx)
    assert reason in str(caught.value), str(caught.value)


def test_skills_claimed_by_an_earlier_umbrella_cannot_be_folded_again() -> None:
    cluster, members, ctx = _setup(claimed={"pdf-b"})
    with pytest.raises(Refused, match="already folded"):
        check_umbrella(_proposal(), cluster, members, ctx)


def test_a_symlink_in_a_folded_skill_is_refused_not_moved() -> None:
    cluster, members, ctx = _setup()
    link = (_blob(b"../../../etc/passwd"), 0o120000)
    members["pdf-b"] = _member("pdf-b", {"passwd": link})
    with pytest.raises(Refused, match="documents/pdf-b/passwd is a symlink"):
        check_umbrella(_proposal(), cluster, members, ctx)


def test_merging_into_a_sibling_keeps_its_other_frontmatter_and_judges_its_own_text() -> None:
    cluster, members, ctx = _setup()
    host = members["pdf-a"]
    front = {**host.frontmatter, "license": "MIT"}
    members["pdf-a"] = Member(host.candidate, front, host.files)
    umbrella = check_umbrella(
        _proposal(name="pdf-a", absorb=["pdf-b", "pdf-c"], body=f"{SOURCE}\n"),
        cluster,
        members,
        ctx,
    )
    assert umbrella.existing and umbrella.folder == "documents/pdf-a"
    assert set(umbrella.archived) == {"documents/pdf-b", "documents/pdf-c"}
    written = parse_skill_md(umbrella.writes["documents/pdf-a/SKILL.md"]).frontmatter
    assert written["license"] == "MIT" and written["name"] == "pdf-a"
    assert "pdf-a" in umbrella.retention
    with pytest.raises(Refused, match=r"loses content: it keeps \d+% of pdf-a"):
        check_umbrella(
            _proposal(name="pdf-a", absorb=["pdf-b"], body="Only new words here entirely."),
            cluster,
            members,
            ctx,
        )


def test_a_copy_never_overwrites_a_file_of_the_skill_merged_into() -> None:
    cluster, members, ctx = _setup()
    host = members["pdf-a"]
    mine = (_blob(b"# the host's own notes\n"), 0o100644)
    files = {**host.files, "references/pdf-b/notes.md": mine}
    members["pdf-a"] = Member(host.candidate, host.frontmatter, files)
    members["pdf-b"] = _member("pdf-b", {"references/notes.md": (_blob(b"# b\n"), 0o100644)})
    with pytest.raises(Refused, match="would overwrite documents/pdf-a/references/pdf-b/notes"):
        check_umbrella(_proposal(name="pdf-a", absorb=["pdf-b", "pdf-c"]), cluster, members, ctx)


def test_a_host_with_a_lowercase_skill_md_keeps_that_one_file() -> None:
    cluster, members, ctx = _setup()
    host = members["pdf-a"]
    files = {("skill.md" if p == "SKILL.md" else p): v for p, v in host.files.items()}
    members["pdf-a"] = Member(host.candidate, host.frontmatter, files)
    umbrella = check_umbrella(
        _proposal(name="pdf-a", absorb=["pdf-b", "pdf-c"], body=f"{SOURCE}\n"),
        cluster,
        members,
        ctx,
    )
    written = [p for p in umbrella.writes if p.lower().endswith("/skill.md")]
    assert written == ["documents/pdf-a/skill.md"]


def test_a_folded_name_already_in_the_archive_is_refused_not_suffixed() -> None:
    cluster, members, ctx = _setup()
    ctx = replace(ctx, paths=ctx.paths | {".archive/documents/pdf-b/SKILL.md"})
    with pytest.raises(Refused, match=r"pdf-b is already archived at \.archive/documents/pdf-b"):
        check_umbrella(_proposal(), cluster, members, ctx)


def test_an_applied_umbrella_takes_its_name_and_paths_for_the_rest_of_the_pass() -> None:
    cluster, members, ctx = _setup()
    first = check_umbrella(_proposal(absorb=["pdf-a", "pdf-b"]), cluster, members, ctx)
    ctx = ctx.after(first)
    assert ctx.live["pdf-tools"] == "documents/pdf-tools"
    assert ".archive/documents/pdf-a/SKILL.md" in ctx.paths
    assert "documents/pdf-a/SKILL.md" not in ctx.paths
    with pytest.raises(Refused, match=r"an existing skill that may not be rewritten"):
        check_umbrella(_proposal(absorb=["pdf-c"]), cluster, members, ctx)


# -- names after a fold ----------------------------------------------------------------------


def test_the_frontmatter_alias_of_an_absorbed_skill_follows_it_to_the_umbrella() -> None:
    from gitcurator.skills.document import SkillLocation
    from gitcurator.telemetry.names import name_map

    locations = [
        SkillLocation("pdf-tools", "pdf-tools/SKILL.md"),
        SkillLocation(".archive/pdf-b", ".archive/pdf-b/SKILL.md", archived=True),
    ]
    names = name_map(locations, {".archive/pdf-b": "pdf-b-alias"}, {"pdf-b": "pdf-tools"})
    assert names["pdf-b"] == "pdf-tools"
    assert names["pdf-b-alias"] == "pdf-tools"
    # Restored (live again), the skill and its alias answer for themselves.
    live = [
        SkillLocation("pdf-tools", "pdf-tools/SKILL.md"),
        SkillLocation("pdf-b", "pdf-b/SKILL.md"),
    ]
    again = name_map(live, {"pdf-b": "pdf-b-alias"}, {"pdf-b": "pdf-tools"})
    assert again["pdf-b"] == "pdf-b" and again["pdf-b-alias"] == "pdf-b"


@pytest.mark.parametrize("linked", [False, True])
def test_two_files_of_a_member_that_would_land_on_one_path_are_refused(linked: bool) -> None:
    cluster, members, ctx = _setup()
    # With links to a moved script both pages are rewritten (new content), else copied.
    root = (_blob(b"[run](scripts/run.sh)\n" if linked else b"# plain\n"), 0o100644)
    nested = (_blob(b"[run](../scripts/run.sh)\n" if linked else b"# plain\n"), 0o100644)
    script = (_blob(b"#!/bin/sh\n"), 0o100755)
    members["pdf-b"] = _member(
        "pdf-b", {"x.md": root, "references/x.md": nested, "scripts/run.sh": script}
    )
    with pytest.raises(Refused, match="would overwrite documents/pdf-tools/references/pdf-b/x"):
        check_umbrella(_proposal(), cluster, members, ctx)


def test_links_out_of_a_moved_text_still_arrive_and_the_hosts_own_stay() -> None:
    from gitcurator.umbrella.paths import relink

    moved = {"references/notes.md": "references/pdf-b/notes.md"}
    rebase = ("documents/pdf-b", "documents/pdf-tools/references")
    text = (
        "[other](../other-skill/SKILL.md) [web](https://example.com/a.md) "
        "[notes](references/notes.md#usage) [root](/etc/hosts)"
    )
    out = relink(text, moved, new_dir="references", rebase=rebase)
    assert "[other](../../other-skill/SKILL.md)" in out
    assert "[web](https://example.com/a.md)" in out
    assert "[notes](pdf-b/notes.md#usage)" in out
    assert "[root](/etc/hosts)" in out


def test_a_body_link_to_the_hosts_own_file_is_not_re_pointed_to_a_folded_ones() -> None:
    cluster, members, ctx = _setup()
    host = members["pdf-a"]
    mine = (_blob(b"# the host's notes\n"), 0o100644)
    members["pdf-a"] = Member(host.candidate, host.frontmatter, {**host.files, "notes.md": mine})
    theirs = (_blob(b"# b's notes\n"), 0o100644)
    members["pdf-b"] = _member("pdf-b", {"notes.md": theirs})
    umbrella = check_umbrella(
        _proposal(name="pdf-a", absorb=["pdf-b", "pdf-c"], body=f"{SOURCE}\n[n](notes.md)\n"),
        cluster,
        members,
        ctx,
    )
    assert "[n](notes.md)" in umbrella.writes["documents/pdf-a/SKILL.md"].decode()

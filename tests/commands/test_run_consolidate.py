"""`run --consolidate` end to end: a real repository, the real openai client, and a real HTTP
server on 127.0.0.1 speaking the chat-completions API (tests/fake_openai.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI, Response, closed_port_url, count_tokens
from support.repos import git, run_cli, write_skill
from support.terminal import run_on_a_terminal

EPOCH = "2026-01-01T00:00:00Z"
NOW = "2026-03-01T00:00:00Z"
PDF = """\
---
name: {name}
description: Extract {what} from PDF files with pdfplumber.
---

# {name}

1. Open the PDF with `pdfplumber.open(path)` and walk `pdf.pages`.
2. Call `page.{call}()` on each page; {what} come back as {shape}.
3. Write each of the {what} to `out/{what}-<page>.{ext}` and report the count.
Pitfall: scanned PDFs hold no {what} layer; run `ocrmypdf --force-ocr` first.
"""
PDF_SKILLS = {
    "pdf-extract-tables": ("tables", "extract_tables", "lists of rows", "csv"),
    "pdf-extract-images": ("images", "images", "dicts with bounding boxes", "png"),
    "pdf-extract-forms": ("form fields", "annots", "annotation dicts", "json"),
}
K8S = """\
---
name: {name}
description: Debug {what} in Kubernetes pods with kubectl.
---

# {name}

Run `kubectl describe pod <pod>` and read the events for {what}; then `kubectl logs
--previous <pod>` shows the {what} before the restart. Fix the manifest and `kubectl apply`.
"""


def _pdf(name: str) -> str:
    what, call, shape, ext = PDF_SKILLS[name]
    return PDF.format(name=name, what=what, call=call, shape=shape, ext=ext)


def _cli(repo: Path, *args: str) -> None:
    result = run_cli(*args, "-C", str(repo))
    assert result.code == 0, result


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three agent-made pdf siblings (one with a script and a reference), two k8s siblings,
    a user-made and a pinned pdf skill, and an idle agent skill the lifecycle archives."""
    root = tmp_path / "skills"
    for name in PDF_SKILLS:
        write_skill(root, f"documents/{name}", body=_pdf(name))
    tables = root / "documents/pdf-extract-tables"
    (tables / "scripts").mkdir()
    (tables / "scripts/extract.py").write_text("import pdfplumber\n")
    (tables / "scripts/extract.py").chmod(0o755)
    (tables / "references").mkdir()
    (tables / "references/camelot.md").write_text("# camelot\n\nLattice mode for ruled tables.\n")
    for name, what in (("k8s-debug-oom", "OOM kills"), ("k8s-debug-crashloop", "crash loops")):
        write_skill(root, f"devops/{name}", body=K8S.format(name=name, what=what))
    write_skill(
        root,
        "documents/pdf-extract-user",
        body=_pdf("pdf-extract-forms").replace("pdf-extract-forms", "pdf-extract-user"),
    )
    write_skill(root, "documents/pdf-extract-pinned")
    write_skill(root, "sourdough-starter")
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, EPOCH)
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "skills", cwd=root)
    assert run_cli("init", str(root), "-q").code == 0
    agents = [*PDF_SKILLS, "k8s-debug-oom", "k8s-debug-crashloop", "pdf-extract-pinned"]
    _cli(root, "track", *agents, "sourdough-starter", "--origin", "agent")
    _cli(root, "pin", "pdf-extract-pinned")
    config = root / ".gitcurator.yaml"
    config.write_text(
        config.read_text().replace("archive_after_days: 90", "archive_after_days: 50")
    )
    git("commit", "-qam", "archive sooner", cwd=root)
    for name in [*PDF_SKILLS, "k8s-debug-oom", "k8s-debug-crashloop", "pdf-extract-user"]:
        _cli(root, "record", "use", name, "--at", "2026-02-20T00:00:00Z")
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var)
    return root


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _configure(repo: Path, server: FakeOpenAI | str, **llm: Any) -> None:
    base_url = server if isinstance(server, str) else server.base_url
    settings = {"base_url": base_url, "model": "fake-model", "retries": 2, "timeout_seconds": 5}
    settings.update(llm)
    config = repo / ".gitcurator.yaml"
    text = config.read_text().split("llm:")[0] + "llm:\n"
    text += "".join(f"  {k}: {json.dumps(v)}\n" for k, v in settings.items())
    config.write_text(text)
    git("commit", "-qam", "configure the model", cwd=repo)


def _umbrella(name: str = "pdf-extraction", **overrides: Any) -> dict[str, Any]:
    body = "# PDF extraction\n\n" + "\n\n".join(
        f"## {n.removeprefix('pdf-extract-')}\n\n" + _pdf(n).split("---\n", 2)[2]
        for n in PDF_SKILLS
    )
    body += "\n\nScripts: [extract.py](scripts/pdf-extract-tables/extract.py).\n"
    umbrella = {
        "name": name,
        "description": "Extract tables, images or form fields from PDF files with pdfplumber.",
        "body": body,
        "absorb": list(PDF_SKILLS),
        "demote": [],
        "reason": "three sessions of one task",
    }
    umbrella.update(overrides)
    return umbrella


def _plan(*umbrellas: dict[str, Any]) -> str:
    return json.dumps({"umbrellas": list(umbrellas), "keep": []})


def _keep() -> str:
    return _plan()


def _pass(repo: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    result = run_cli("run", "--consolidate", "--json", "--now", NOW, "-C", str(repo), *args)
    return result.code, json.loads(result.out) if result.out else {}, result.err


def _answer_by_cluster(pdf: str, k8s: str = "") -> Any:
    """A handler that answers each cluster's request by what its message is about."""

    def handler(request: dict[str, Any]) -> Response | str:
        user = request["messages"][-1]["content"]
        return pdf if "pdf-extract-tables" in user else (k8s or _keep())

    return handler


def _refs(repo: Path) -> dict[str, str]:
    out = git("for-each-ref", "--format=%(refname) %(objectname)", cwd=repo).stdout
    return dict(line.split() for line in out.splitlines())


def _show(repo: Path, rev: str) -> str:
    return git("show", rev, cwd=repo).stdout


def test_a_good_plan_becomes_one_umbrella_commit_and_nothing_is_lost(
    library: Path, server: FakeOpenAI
) -> None:
    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    main_before = git("rev-parse", "main", cwd=library).stdout
    code, doc, err = _pass(library)
    assert code == 0, err
    branch = doc["branch"]
    # Two clusters, one request each; the singletons, user and pinned skills are not sent.
    assert len(server.requests) == 2
    sent = " ".join(r["messages"][-1]["content"] for r in server.requests)
    for never in ("sourdough-starter", "pdf-extract-user", "pdf-extract-pinned"):
        assert never not in sent
    assert server.requests[0]["response_format"]["type"] == "json_schema"
    [fold] = doc["consolidations"]
    assert fold["umbrella"] == "pdf-extraction"
    assert sorted(fold["absorbed"]) == sorted(PDF_SKILLS)
    assert all(r >= 0.9 for r in fold["retention"].values()), fold["retention"]
    log = git("log", "--format=%s", f"main..{branch}", cwd=library).stdout.splitlines()
    assert log == [
        f"curator: report for run {doc['run_id']}",
        "curator: fold 3 skills into pdf-extraction",
        "curator: archive 1 unused skill",
    ]
    message = git("log", "-1", "--format=%B", f"{branch}~1", cwd=library).stdout
    assert "Curator-Absorbed-Into: pdf-extract-tables -> pdf-extraction" in message
    assert f"Curator-Run: {doc['run_id']}" in message
    # The umbrella lives beside its siblings; they moved whole to .archive/.
    files = git("ls-tree", "-r", "--format=%(objectmode) %(path)", branch, cwd=library).stdout
    modes = dict(reversed(line.split(" ", 1)) for line in files.splitlines())
    assert "documents/pdf-extraction/SKILL.md" in modes
    assert modes["documents/pdf-extraction/scripts/pdf-extract-tables/extract.py"] == "100755"
    assert "documents/pdf-extraction/references/pdf-extract-tables/camelot.md" in modes
    for name in PDF_SKILLS:
        assert f"documents/{name}/SKILL.md" not in modes
        archived = _show(library, f"{branch}:.archive/documents/{name}/SKILL.md")
        assert archived == _pdf(name)
    assert modes[".archive/documents/pdf-extract-tables/scripts/extract.py"] == "100755"
    # The default branch did not move; the branch validates as a checkout.
    assert git("rev-parse", "main", cwd=library).stdout == main_before
    checkout = library.parent / "checkout"
    git("clone", "-q", "-b", branch, str(library), str(checkout), cwd=library.parent)
    checked = run_cli("validate", "-C", str(checkout))
    assert checked.code == 0, checked
    status = run_cli("status", "-C", str(library))
    assert "1 archived, 0 stale, 0 active again, 3 folded into 1 umbrella" in status.out
    report = (checkout / doc["report"]).read_text()
    assert "## Folded into umbrellas (1)" in report
    assert (
        "- cluster `pdf-extract` (pdf-extract-forms, pdf-extract-images, pdf-extract-tables): "
        "applied: pdf-extraction applied"
    ) in report
    assert "- cluster `k8s-debug` (k8s-debug-crashloop, k8s-debug-oom): kept: no umbrella" in report
    counts = json.loads((checkout / f".curator/runs/{doc['run_id']}/run.json").read_text())[
        "counts"
    ]
    before, after = counts["before"], counts["after"]
    # sourdough-starter archived, three skills folded, one umbrella added.
    assert after.get("archived", 0) == before.get("archived", 0) + 4
    assert sum(after.values()) == sum(before.values()) + 1
    assert "fake-model" in report


def test_after_merge_old_names_resolve_and_count_for_the_umbrella(
    library: Path, server: FakeOpenAI
) -> None:
    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    code, doc, err = _pass(library)
    assert code == 0, err
    _cli(library, "merge", doc["run_id"])
    resolved = run_cli("resolve", "pdf-extract-images", "-C", str(library))
    assert resolved.code == 0, resolved
    assert "pdf-extraction" in resolved.out
    before = _uses(library, "pdf-extraction")
    _cli(library, "record", "use", "pdf-extract-images")
    assert _uses(library, "pdf-extraction") == before + 1
    listed = run_cli("list", "--json", "-C", str(library))
    rows = {r["name"]: r for r in json.loads(listed.out)}
    for name in PDF_SKILLS:
        assert rows[name]["state"] == "archived"
        assert rows[name]["absorbed_into"] == "pdf-extraction"
        assert rows[name]["archived_at"] == NOW  # the pass's --now, like its archives
    assert rows["pdf-extraction"]["state"] == "active"
    logged = run_cli("log", "-C", str(library))
    assert "pdf-extract-images -> pdf-extraction" in logged.out
    # Rolled back, the fold is undone: the old name answers for itself again.
    _cli(library, "rollback", doc["run_id"])
    again = run_cli("resolve", "pdf-extract-images", "--json", "-C", str(library))
    assert json.loads(again.out)["resolves_to"] == "pdf-extract-images"
    images = _uses(library, "pdf-extract-images")
    _cli(library, "record", "use", "pdf-extract-images")
    assert _uses(library, "pdf-extract-images") == images + 1
    assert not (library / "documents/pdf-extraction").exists()
    assert (library / "documents/pdf-extract-tables/scripts/extract.py").exists()


def _uses(repo: Path, name: str) -> int:
    result = run_cli("show", name, "--json", "-C", str(repo))
    assert result.code == 0, result
    count: int = json.loads(result.out)["use_count"]
    return count


HOSTILE = {
    "outside the cluster (user)": (
        {"absorb": [*PDF_SKILLS, "pdf-extract-user"]},
        "pdf-extract-user may not be folded: origin user",
    ),
    "pinned": (
        {"absorb": [*PDF_SKILLS, "pdf-extract-pinned"]},
        "pdf-extract-pinned may not be folded: pinned",
    ),
    "another cluster": ({"absorb": [*PDF_SKILLS, "k8s-debug-oom"]}, "not in cluster"),
    "unknown skill": ({"absorb": ["pdf-extract-tables", "nope"]}, "no skill 'nope'"),
    "escaping path": (
        {
            "absorb": ["pdf-extract-tables", "pdf-extract-images"],
            "demote": [{"skill": "pdf-extract-forms", "to": "references/../../../etc/passwd"}],
        },
        "is not a plain path inside the umbrella folder",
    ),
    "scripts": (
        {
            "absorb": ["pdf-extract-tables", "pdf-extract-images"],
            "demote": [{"skill": "pdf-extract-forms", "to": "scripts/run.sh"}],
        },
        "never scripts/",
    ),
    "ticket name": ({"name": "pdf-issue-4211"}, "names a ticket"),
    "dated name": ({"name": "pdf-2026-03-01"}, "a date or a number"),
    "one-off name": ({"name": "tmp-pdf"}, "one-off"),
    "lossy": ({"body": "Handles PDFs."}, "loses content"),
    "umbrella is a user skill": ({"name": "pdf-extract-user"}, "may not be rewritten"),
    "broken link": (
        {"body": _umbrella()["body"] + "\nSee [gone](../pdf-extract-forms/SKILL.md).\n"},
        "would not validate",
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_plans_are_refused_with_a_reason_and_change_no_skill(
    library: Path, server: FakeOpenAI, case: str
) -> None:
    overrides, reason = HOSTILE[case]
    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella(**overrides)))
    code, doc, err = _pass(library)
    # The k8s cluster's plan (keep everything) was valid: the pass as a whole succeeded.
    assert code == 0, err
    assert doc["consolidations"] == []
    [refused] = [r for r in doc["refused"] if "pdf" in r["what"]]
    assert reason in refused["reason"], refused
    # Only the lifecycle's archive and the report were committed: no pdf skill moved.
    changed = git("diff", "--name-only", "main", doc["branch"], cwd=library).stdout.split()
    ours = (".curator/runs/", ".archive/sourdough-starter/", "sourdough-starter/")
    assert all(p.startswith(ours) for p in changed), changed


def test_a_plan_cannot_fold_one_skill_twice(library: Path, server: FakeOpenAI) -> None:
    _configure(library, server)
    second = _umbrella("pdf-tools", absorb=["pdf-extract-tables"])
    server.handler = _answer_by_cluster(_plan(_umbrella(), second))
    code, doc, err = _pass(library)
    assert code == 0, err
    assert [c["umbrella"] for c in doc["consolidations"]] == ["pdf-extraction"]
    assert "already folded" in doc["refused"][0]["reason"]


BAD_REPLIES = {
    "non-JSON content": ("Sure! Here is the plan: merge them.", "not JSON"),
    "schema-invalid": (json.dumps({"umbrellas": [{"name": "x"}]}), "breaks the plan schema"),
    "503 every time": (Response.error(503, retry_after=0), "HTTP 503 after 2 tries"),
    "timeout": (Response.slow(8), "timed out"),
    "not JSON at all": (Response.malformed(), "the reply is not JSON"),
}


@pytest.mark.parametrize("case", sorted(BAD_REPLIES))
def test_when_no_cluster_gets_a_usable_plan_the_pass_exits_1_but_keeps_lifecycle_work(
    library: Path, server: FakeOpenAI, case: str
) -> None:
    answer, reason = BAD_REPLIES[case]
    _configure(library, server, timeout_seconds=1)
    server.handler = lambda request: answer
    code, doc, err = _pass(library)
    assert code == 1
    assert "no cluster got a usable plan from fake-model" in err
    # sourdough-starter was idle since EPOCH: the lifecycle archived it all the same.
    assert doc["archived"] == ["sourdough-starter"]
    assert all(c["status"] == "failed" for c in doc["llm"]["clusters"])
    assert any(reason in r["reason"] for r in doc["refused"]), doc["refused"]
    tree = git("ls-tree", "-r", "--name-only", doc["branch"], cwd=library).stdout
    assert ".archive/sourdough-starter/SKILL.md" in tree


def test_an_unreachable_endpoint_fails_each_cluster_and_exits_1(library: Path) -> None:
    url = closed_port_url()
    _configure(library, url)
    code, doc, err = _pass(library)
    assert code == 1
    assert url in err
    statuses = [c["status"] for c in doc["llm"]["clusters"]]
    assert statuses == ["failed", "failed"]  # only two clusters: both tried
    assert "refused" in doc["refused"][0]["reason"] or "connect" in doc["refused"][0]["reason"]


def test_max_requests_leaves_clusters_not_reviewed(library: Path, server: FakeOpenAI) -> None:
    _configure(library, server, max_requests=1)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    code, doc, err = _pass(library)
    assert code == 0, err
    assert len(server.requests) == 1
    # Clusters are asked in name order: k8s-debug first (kept), pdf-extract left.
    statuses = {c["key"]: c["status"] for c in doc["llm"]["clusters"]}
    assert statuses == {"k8s-debug": "kept", "pdf-extract": "not_reviewed"}
    assert doc["llm"]["stopped"] == "llm.max_requests=1 reached"
    report = _show(library, f"{doc['branch']}:{doc['report']}")
    assert "not reviewed (1, llm.max_requests=1 reached)" in report


def test_report_counts_tokens_from_the_api_usage(library: Path, server: FakeOpenAI) -> None:
    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    code, doc, err = _pass(library)
    assert code == 0, err
    run_json = json.loads(_show(library, f"{doc['branch']}:.curator/runs/{doc['run_id']}/run.json"))
    llm = run_json["llm"]
    assert llm["model"] == "fake-model"
    assert llm["requests"] == 2
    texts = ["".join(m["content"] for m in r["messages"]) for r in server.requests]
    assert llm["prompt_tokens"] == sum(count_tokens(t) for t in texts) > 0
    replies = [_answer_by_cluster(_plan(_umbrella()))(r) for r in server.requests]
    assert llm["completion_tokens"] == sum(count_tokens(str(t)) for t in replies) > 0
    assert (
        run_json["consolidations"][0]["commit"]
        == git("rev-parse", f"{doc['branch']}~1", cwd=library).stdout.strip()
    )


def test_dry_run_says_what_the_real_run_then_does(library: Path, server: FakeOpenAI) -> None:
    _configure(library, server)
    # Two umbrellas of one name in one plan: the second is refused, in both modes alike.
    twice = _plan(
        _umbrella(absorb=["pdf-extract-tables", "pdf-extract-images"]),
        _umbrella(absorb=["pdf-extract-forms"]),
    )
    server.handler = _answer_by_cluster(twice)
    _dry_code, dry, _ = _pass(library, "--dry-run")
    code, real, err = _pass(library)
    assert code == 0, err
    assert [c["umbrella"] for c in dry["consolidations"]] == ["pdf-extraction"]
    assert [(c["umbrella"], c["absorbed"]) for c in dry["consolidations"]] == [
        (c["umbrella"], c["absorbed"]) for c in real["consolidations"]
    ]
    assert [r["reason"] for r in dry["refused"]] == [r["reason"] for r in real["refused"]]


def test_dry_run_asks_the_model_and_writes_nothing(library: Path, server: FakeOpenAI) -> None:
    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    refs = _refs(library)
    objects = git("count-objects", "-v", cwd=library).stdout
    state = sorted(p.name for p in (library / ".git/gitcurator").iterdir())
    result = run_cli("run", "--consolidate", "--dry-run", "--now", NOW, "-C", str(library))
    assert result.code == 0, result
    assert "would fold into pdf-extraction: " in result.out
    assert "nothing was written" in result.out
    assert len(server.requests) == 2
    assert _refs(library) == refs
    assert git("count-objects", "-v", cwd=library).stdout == objects
    assert sorted(p.name for p in (library / ".git/gitcurator").iterdir()) == state


def test_missing_model_or_key_fails_before_any_work(
    library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refs = _refs(library)
    result = run_cli("run", "--consolidate", "-C", str(library))
    assert result.code == 1
    assert "llm.model is not set" in result.err
    _configure(library, "http://127.0.0.1:9/v1", base_url=None)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = run_cli("run", "--consolidate", "-C", str(library))
    assert result.code == 1
    assert "$OPENAI_API_KEY is not set" in result.err
    assert not [r for r in _refs(library) if r.startswith("refs/heads/curator/")]
    assert {k: v for k, v in _refs(library).items() if "notes" in k} == {
        k: v for k, v in refs.items() if "notes" in k
    }


def test_config_consolidate_true_turns_the_pass_on(library: Path, server: FakeOpenAI) -> None:
    _configure(library, server)
    config = library / ".gitcurator.yaml"
    config.write_text(config.read_text().replace("consolidate: false", "consolidate: true"))
    git("commit", "-qam", "consolidate by default", cwd=library)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    result = run_cli("run", "--json", "--now", NOW, "-C", str(library))
    assert result.code == 0, result
    assert json.loads(result.out)["consolidations"][0]["umbrella"] == "pdf-extraction"


def test_merging_into_an_existing_sibling_keeps_its_folder_and_files(
    library: Path, server: FakeOpenAI
) -> None:
    _configure(library, server)
    into_tables = _umbrella(
        "pdf-extract-tables",
        absorb=["pdf-extract-images", "pdf-extract-forms"],
        body=_umbrella()["body"].replace(
            "scripts/pdf-extract-tables/extract.py", "scripts/extract.py"
        ),
    )
    server.handler = _answer_by_cluster(_plan(into_tables))
    code, doc, err = _pass(library)
    assert code == 0, err
    [fold] = doc["consolidations"]
    assert fold["existing"] is True
    assert set(fold["retention"]) == set(PDF_SKILLS)  # the host's own content counts too
    branch = doc["branch"]
    skill_md = _show(library, f"{branch}:documents/pdf-extract-tables/SKILL.md")
    assert skill_md.startswith("---\nname: pdf-extract-tables\n")
    tree = git("ls-tree", "-r", "--name-only", branch, cwd=library).stdout.split()
    assert "documents/pdf-extract-tables/scripts/extract.py" in tree
    assert ".archive/documents/pdf-extract-images/SKILL.md" in tree
    assert ".archive/documents/pdf-extract-tables/SKILL.md" not in tree


def test_demoted_skills_keep_their_whole_text_with_links_re_pointed(
    library: Path, server: FakeOpenAI
) -> None:
    _configure(library, server)
    body = _umbrella()["body"] + "\nTables in depth: [tables](references/tables.md).\n"
    demoting = _umbrella(
        absorb=["pdf-extract-images", "pdf-extract-forms"],
        demote=[{"skill": "pdf-extract-tables", "to": "references/tables.md"}],
        body=body,
    )
    tables = library / "documents/pdf-extract-tables/SKILL.md"
    tables.write_text(tables.read_text() + "\nSee [camelot](references/camelot.md).\n")
    git("commit", "-qam", "link camelot", cwd=library)
    server.handler = _answer_by_cluster(_plan(demoting))
    code, doc, err = _pass(library)
    assert code == 0, err
    assert doc["consolidations"][0]["demoted"] == ["pdf-extract-tables"]
    demoted = _show(library, f"{doc['branch']}:documents/pdf-extraction/references/tables.md")
    assert "pdf-extract-tables/camelot.md" in demoted  # re-pointed to the re-homed file
    assert "page.extract_tables()" in demoted


def test_progress_goes_to_a_terminal_stderr_and_never_with_json(
    library: Path, server: FakeOpenAI
) -> None:
    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    shown = run_on_a_terminal("run", "--consolidate", "--dry-run", "--now", NOW, cwd=library)
    assert shown.code == 0, shown
    assert "would fold into pdf-extraction" in shown.out
    assert "cluster 1 of 2" in shown.terminal and "cluster 2 of 2" in shown.terminal
    assert "tokens so far" in shown.terminal
    assert "reading the skill catalogue" in shown.terminal
    # On a terminal too, --json shows no progress at all: stdout and stderr stay clean.
    quiet = run_on_a_terminal("run", "--consolidate", "--json", "--now", NOW, cwd=library)
    assert quiet.code == 0, quiet
    assert json.loads(quiet.out)["consolidations"][0]["umbrella"] == "pdf-extraction"
    assert "cluster 1 of" not in quiet.terminal and "reading" not in quiet.terminal
    # Captured (not a terminal), stderr carries no progress.
    _code, _doc, err = _pass(library)
    assert "cluster 1 of" not in err


def test_the_pass_refuses_a_symlinked_support_file(library: Path, server: FakeOpenAI) -> None:
    link = library / "documents/pdf-extract-images/notes.md"
    os.symlink("../pdf-extract-forms/SKILL.md", link)
    git("add", "-A", cwd=library)
    git("commit", "-qm", "a link", cwd=library)
    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    code, doc, err = _pass(library)
    assert code == 0, err
    assert doc["consolidations"] == []
    assert "is a symlink" in doc["refused"][0]["reason"]


def test_three_transport_failures_in_a_row_stop_asking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "many"
    # Four pairs of siblings: each pair's skills say the same thing, each pair something else.
    subjects = {
        "alpha": "sourdough starters, flour, water and the feeding schedule",
        "bravo": "kubernetes pods with kubectl logs, describe and restarts",
        "charlie": "invoice reminders for overdue customers, with a polite follow-up",
        "delta": "ssh tunnels through a bastion or jump host with autossh",
    }
    names = [f"{f}-widget-{i}" for f in subjects for i in (1, 2)]
    for name in names:
        write_skill(root, name, description=f"Look after {subjects[name.split('-')[0]]}.")
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, EPOCH)
    assert run_cli("init", str(root), "-q").code == 0
    _cli(root, "track", *names, "--origin", "agent")
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var)
    _configure(root, closed_port_url(), retries=1)
    code, doc, err = _pass(root)
    assert code == 1, err
    statuses = [c["status"] for c in doc["llm"]["clusters"]]
    assert statuses == ["failed", "failed", "failed", "not_reviewed"]
    assert doc["llm"]["stopped"] == "3 requests in a row failed"
    assert doc["llm"]["requests"] == 3


def test_max_requests_zero_asks_nothing_and_is_no_failure(
    library: Path, server: FakeOpenAI
) -> None:
    _configure(library, server, max_requests=0)
    code, doc, err = _pass(library)
    assert code == 0, err
    assert server.requests == []
    assert {c["status"] for c in doc["llm"]["clusters"]} == {"not_reviewed"}


def test_golden_consolidation_outputs_are_what_they_were(library: Path, server: FakeOpenAI) -> None:
    """The umbrella pass's --json, REPORT.md, run.json and commit messages, byte for byte
    (temporary paths, object ids, ports and wall times masked): the restructure's proof."""
    import re

    golden = Path(__file__).parents[1] / "golden"

    def mask(text: str) -> str:
        text = text.replace(str(library), "<DIR>").replace(server.base_url, "<URL>")
        text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<PORT>", text)
        text = re.sub(r'("(?:wall|elapsed)[a-z_]*": )[0-9.]+', r"\1<T>", text)
        text = re.sub(r"tokens, [0-9.]+ s$", "tokens, <T> s", text, flags=re.M)
        return re.sub(r"\b[0-9a-f]{12}(?:[0-9a-f]{28})?\b", "<SHA>", text)

    def check(name: str, text: str) -> None:
        path = golden / name
        if os.environ.get("GITCURATOR_GOLDEN_WRITE") == "1":
            path.write_text(text, encoding="utf-8")
        assert path.read_text(encoding="utf-8") == text, name

    _configure(library, server)
    server.handler = _answer_by_cluster(_plan(_umbrella()))
    result = run_cli("run", "--consolidate", "--json", "--now", NOW, "-C", str(library))
    assert result.code == 0, result
    doc = json.loads(result.out)
    check("consolidate-run.json.out", mask(result.out))
    run_dir = f"{doc['branch']}:.curator/runs/{doc['run_id']}"
    check("consolidate-REPORT.md", mask(git("show", f"{run_dir}/REPORT.md", cwd=library).stdout))
    check("consolidate-run.json", mask(git("show", f"{run_dir}/run.json", cwd=library).stdout))
    log = git("log", "--format=%s%n%b%n--", f"main..{doc['branch']}", cwd=library).stdout
    check("consolidate-log.txt", mask(log))


@pytest.mark.parametrize("shape", ["into a sibling", "with a demoted sibling"])
def test_a_real_pass_is_merged_after_its_umbrella_guards_rerun(
    library: Path, server: FakeOpenAI, shape: str
) -> None:
    # merge re-checks each umbrella commit (issue 11): a fold into a sibling rewrites that
    # sibling's SKILL.md, a demotion writes new Markdown; both must still be accepted.
    _configure(library, server)
    if shape == "into a sibling":
        plan = _umbrella(
            "pdf-extract-tables",
            absorb=["pdf-extract-images", "pdf-extract-forms"],
            body=_umbrella()["body"].replace(
                "scripts/pdf-extract-tables/extract.py", "scripts/extract.py"
            ),
        )
    else:
        plan = _umbrella(
            absorb=["pdf-extract-images", "pdf-extract-forms"],
            demote=[{"skill": "pdf-extract-tables", "to": "references/tables.md"}],
        )
    server.handler = _answer_by_cluster(_plan(plan))
    code, doc, err = _pass(library)
    assert code == 0, err
    assert len(doc["consolidations"]) == 1, doc
    merged = run_cli("merge", doc["run_id"], "-C", str(library))
    assert merged.code == 0, merged
    umbrella = doc["consolidations"][0]["umbrella"]
    assert (library / f"documents/{umbrella}/SKILL.md").exists()

"""The umbrella guards at merge see skills under `include:` folders as the pass does: a
crafted fold into a person's skill kept under `.system/` is refused like any other."""

from __future__ import annotations

from pathlib import Path

from support.passes import RUN, snapshot
from support.repos import git, run_cli, write_skill
from support.umbrella_branches import make_umbrella_pass

STEPS = (
    "Open the file with pdfplumber, walk every page, call extract_tables on each page and "
    "write the rows to one csv file per page; scanned pages need ocrmypdf first."
)


def _included_toolbox(agent_repo: Path) -> str:
    """agent_repo with a person's skill toolbox under an included .system/; gives the
    SKILL.md of an umbrella folding pdf-extract into it."""
    write_skill(
        agent_repo, "pdf-extract", body=f"---\nname: pdf-extract\ndescription: x.\n---\n\n{STEPS}\n"
    )
    write_skill(agent_repo, ".system/toolbox")
    config = agent_repo / ".gitcurator.yaml"
    text = config.read_text().replace("min_age_days: 7", "min_age_days: 0")
    config.write_text(text + "include: [.system]\n")
    git("add", "-A", cwd=agent_repo)
    git("commit", "-qm", "a person's toolbox under .system", cwd=agent_repo)
    assert "toolbox" in run_cli("list", "-C", str(agent_repo)).out
    return f"---\nname: toolbox\ndescription: Toolbox and pdf-extract.\n---\n\n{STEPS}\n"


def test_a_fold_rewriting_a_persons_included_skill_is_refused(agent_repo: Path) -> None:
    umbrella = _included_toolbox(agent_repo)
    fold, _tip = make_umbrella_pass(agent_repo, ".system/toolbox", umbrella, ("pdf-extract",))
    before = snapshot(agent_repo)
    result = run_cli("merge", "-C", str(agent_repo))
    assert result.code == 1, result
    assert f"refusing to merge curator/{RUN}: commit {fold[:12]} rewrites " in result.err
    assert ".system/toolbox/SKILL.md, but toolbox may not be changed" in result.err
    assert snapshot(agent_repo) == before


def test_the_same_fold_into_an_agent_made_included_skill_merges(agent_repo: Path) -> None:
    umbrella = _included_toolbox(agent_repo)
    assert run_cli("track", "toolbox", "--origin", "agent", "-C", str(agent_repo)).code == 0
    make_umbrella_pass(agent_repo, ".system/toolbox", umbrella, ("pdf-extract",))
    result = run_cli("merge", "-C", str(agent_repo))
    assert result.code == 0, result
    assert (agent_repo / ".archive/pdf-extract/SKILL.md").exists()

"""SkillService in-process: names, odd skills, a library that cannot be re-read, lost events."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git, write_skill

from gitcurator import statefiles
from gitcurator.mcp import catalogue
from gitcurator.mcp.service import Refused, SkillService
from gitcurator.telemetry import events


def _commit(repo: Path, message: str) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-qm", message, cwd=repo)


def test_a_frontmatter_name_leads_to_its_folder_and_such_a_skill_is_no_resource(
    served: Path,
) -> None:
    write_skill(served, "tools/folder-name", name="other-name")
    _commit(served, "a skill whose name: is not its folder")
    with SkillService(served) as service:
        loaded = service.load_skill("other-name", 1)
        assert loaded.skill.name == "folder-name"
        assert (
            loaded.note
            == "`other-name` is the frontmatter name of `folder-name`; this is `folder-name`."
        )
        assert loaded.uri is None
        assert "skill://tools/folder-name/SKILL.md" not in {r["uri"] for r in service.resources()}
        with pytest.raises(Refused, match="no skill is served at"):
            service.read_resource("skill://tools/folder-name/SKILL.md", 2)


def test_skill_md_files_that_do_not_parse(served: Path) -> None:
    broken = write_skill(served, "odd/no-frontmatter", body="# just a heading\n")
    latin = write_skill(served, "odd/latin-one")
    latin.write_bytes(latin.read_bytes().replace(b"Steps", b"\xe9tapes"))
    _commit(served, "odd skills, committed past validation")
    with SkillService(served) as service:
        assert service.load_skill("no-frontmatter", 1).text == broken.read_text()
        rows = {r["name"]: r for r in service.list_skills(None, None)}
        assert rows["no-frontmatter"]["description"] == ""
        assert "no-frontmatter" not in {r["name"] for r in service.resources()}
        with pytest.raises(Refused, match=r"latin-one: SKILL\.md is not UTF-8 text"):
            service.load_skill("latin-one", 2)


def test_a_library_that_cannot_be_re_read_is_served_as_last_seen(
    served: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SkillService(served) as service:
        first = service.catalogue()
        write_skill(served, "new/fresh")
        _commit(served, "a new skill")

        def fail(*args: object) -> catalogue.Catalogue:
            raise OSError("packfile busy")

        monkeypatch.setattr(catalogue, "build", fail)
        assert service.catalogue() is first
        assert list(service.drain_warnings()) == [
            f"the library could not be re-read (packfile busy); serving {first.head}"
        ]
        monkeypatch.undo()
        assert "fresh" in service.catalogue().live


def test_a_load_whose_event_cannot_be_written_still_answers(served: Path) -> None:
    (served / ".git" / statefiles.STATE_DIR / statefiles.JOURNAL).mkdir(parents=True)
    with SkillService(served) as service:
        assert service.load_skill("helm-deploy", 7).skill.name == "helm-deploy"
        (warning,) = service.drain_warnings()
        assert warning.startswith("use of helm-deploy was not recorded:")


def test_event_ids_are_per_session_and_request_and_fit_the_journal(served: Path) -> None:
    with SkillService(served, session="abc") as service:
        assert service.event_id(12) == "mcp-abc-12"
        long_ids = {service.event_id("x" * 500 + tail) for tail in "ab"}
        assert len(long_ids) == 2, "long request ids that differ late stay apart"
        assert all(len(i) <= events.MAX_EVENT_ID for i in long_ids)


def test_list_skills_honours_the_limit(served: Path) -> None:
    with SkillService(served) as service:
        assert [r["name"] for r in service.list_skills(None, 2)] == ["big-dataset", "helm-deploy"]
        assert service.list_skills("sourdough starter", None) == []


@pytest.mark.parametrize("limit", [True, False, 0, 1.5, "3"])
def test_list_skills_refuses_a_limit_that_is_no_whole_number(served: Path, limit: object) -> None:
    from gitcurator.mcp.server import _call

    with SkillService(served) as service, pytest.raises(Refused, match="whole number"):
        _call(service, "list_skills", {"limit": limit}, 1)

"""skill:// URIs: built from a skill path and a file, taken apart against the served skills."""

from __future__ import annotations

import pytest

from gitcurator.mcp.uris import skill_uri, split_uri

SKILLS = {"pdf-extract", "devops/k8s/helm-deploy"}


def test_a_skill_md_uri_ends_in_the_skill_name() -> None:
    assert skill_uri("devops/k8s/helm-deploy") == "skill://devops/k8s/helm-deploy/SKILL.md"


@pytest.mark.parametrize(
    "file", ["SKILL.md", "references/notes.md", "assets/a file #1.md", "références/été.md"]
)
def test_a_uri_parses_back_to_its_skill_and_file(file: str) -> None:
    uri = skill_uri("devops/k8s/helm-deploy", file)
    assert " " not in uri and "#" not in uri
    assert split_uri(uri, SKILLS) == ("devops/k8s/helm-deploy", file)


@pytest.mark.parametrize(
    "uri",
    [
        "file:///etc/passwd",
        "skill://nothing-here/SKILL.md",
        "skill://pdf-extract",
        "skill://devops/k8s/SKILL.md",
    ],
)
def test_uris_under_no_served_skill_are_none(uri: str) -> None:
    assert split_uri(uri, SKILLS) is None

"""`gitcurator adopt`: a person's skill handed to the curator; a hub skill is not theirs."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.passes import show

from gitcurator.commands.adopt import adopt
from gitcurator.commands.track import track
from gitcurator.errors import CuratorError


def test_adopt_makes_a_user_skill_the_agents(repo: Path) -> None:
    assert adopt(repo, "helm-deploy").text == "adopt: helm-deploy"
    assert show(repo, "helm-deploy")["origin"] == "agent"
    assert adopt(repo, "helm-deploy").text == "already so: helm-deploy"


def test_a_hub_skill_is_refused_with_the_way_out(repo: Path) -> None:
    track(repo, ["helm-deploy"], "hub")
    with pytest.raises(CuratorError, match="`gitcurator track --origin user helm-deploy` first"):
        adopt(repo, "helm-deploy")
    assert show(repo, "helm-deploy")["origin"] == "hub"

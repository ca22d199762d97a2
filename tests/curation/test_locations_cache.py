"""The skills' locations kept by tree id (curation/locations_cache): only the very tree and
config they were found in answer from them, and a damaged file is walked again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.damaged_caches import KINDS, damage_cache
from support.repos import git

from gitcurator.curation.locations_cache import tree_locations
from gitcurator.library import open_repo
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.statefiles import LOCATIONS_CACHE, read_only


def _locations(
    repo: Path, skills_dir: str = "", include: tuple[str, ...] = ()
) -> list[SkillLocation]:
    with open_repo(repo) as lib:
        store = lib.store
        tree = store.repo[store.head_commit()].tree
        entries = store.tree_entries(tree)
        found = tree_locations(store, tree, entries, skills_dir, include)
        assert found == find_skills(entries, skills_dir, include)
        return list(found)


def test_only_the_tree_and_config_they_were_found_in_answer(repo: Path) -> None:
    first = _locations(repo)
    assert first and (repo / ".git/gitcurator" / LOCATIONS_CACHE).is_file()
    assert _locations(repo) == first  # from the file
    # A skill removed by plain git: another tree, walked again.
    victim = first[0].folder
    git("rm", "-rq", victim, cwd=repo)
    git("commit", "-qm", "removed behind its back", cwd=repo)
    assert len(_locations(repo)) == len(first) - 1
    # The same tree under another config: walked again for it.
    hidden = repo / ".hidden/secret-skill/SKILL.md"
    hidden.parent.mkdir(parents=True)
    hidden.write_text("---\nname: secret-skill\ndescription: x\n---\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "a dot-folder", cwd=repo)
    assert ".hidden/secret-skill" not in [x.folder for x in _locations(repo)]
    assert ".hidden/secret-skill" in [x.folder for x in _locations(repo, include=(".hidden",))]


def test_a_dry_run_writes_none(repo: Path) -> None:
    with read_only():
        _locations(repo)
    assert not (repo / ".git/gitcurator" / LOCATIONS_CACHE).exists()


FORGED = ("forged path", "forged flag", "flag flipped", "entry dropped")


@pytest.mark.parametrize("damage", [*KINDS, *FORGED, "unwritable"])
def test_a_damaged_file_is_walked_again(repo: Path, damage: str, tmp_path: Path) -> None:
    cold = _locations(repo)
    cache = repo / ".git/gitcurator" / LOCATIONS_CACHE
    doc = json.loads(cache.read_text())
    if damage in FORGED:
        # Shaped as the file is, but edited by hand: a live skill said archived (it would
        # leave the pass's catalogue) or left out, as much as a wrong type or path.
        if damage == "entry dropped":
            doc["locations"].pop(0)
        else:
            field, value = {
                "forged path": (1, "elsewhere/SKILL.md"),
                "forged flag": (2, 1),
                "flag flipped": (2, not doc["locations"][0][2]),
            }[damage]
            doc["locations"][0][field] = value
        cache.write_text(json.dumps(doc, separators=(",", ":")))
    elif damage == "unwritable":
        cache.unlink()
        cache.mkdir()  # neither read nor replaced: root is not stopped by a read-only mode
    else:
        damage_cache(cache, damage, tmp_path / "elsewhere.json")
    assert _locations(repo) == cold

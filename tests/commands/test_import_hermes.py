"""`gitcurator import hermes`: Hermes' files parsed (tables), then whole imports on real repos."""

from __future__ import annotations

import importlib.util
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from support.repos import CliResult, git, run_cli, write_skill

from gitcurator.importers.hermes import plan as hermes
from gitcurator.importers.hermes.plan import HermesFiles, HermesUsage, SkillFacts
from gitcurator.skills.document import SkillLocation
from gitcurator.telemetry.records import HostCounters, Imported, Stamped, UsageRecord

NOW = datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC)
NOW_TEXT = "2026-06-01T12:00:00Z"
NOTES = "refs/notes/gitcurator"


# -- values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-05-01T10:00:00+02:00", "2025-05-01T08:00:00Z"),
        ("2025-05-01T10:00:00.123456+00:00", "2025-05-01T10:00:00Z"),  # Hermes' isoformat()
        ("2025-05-01T10:00:00Z", "2025-05-01T10:00:00Z"),
        ("2025-05-01T10:00:00", "2025-05-01T10:00:00Z"),  # naive: UTC
        ("2025-05-01", "2025-05-01T00:00:00Z"),
        (1735689600, "2025-01-01T00:00:00Z"),  # epoch seconds
        (1735689600.75, "2025-01-01T00:00:00Z"),
        (None, None),
        ("", None),  # Hermes reads an empty value as missing
    ],
)
def test_timestamps_are_normalised(value: object, expected: str | None) -> None:
    assert hermes.parse_stamp(value, NOW) == expected


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("yesterday", "not an ISO-8601 time"),
        ("2025-13-01", "not an ISO-8601 time"),
        (1.0e20, "not an ISO-8601 time or seconds"),
        (float("nan"), "not an ISO-8601 time or seconds"),
        (-86400, "before 1970"),
        ("0001-01-01T00:00:00+01:00", "not an ISO-8601 time"),
        ("1969-12-31T23:59:59Z", "before 1970"),
        ("2027-01-01T00:00:00Z", "in the future"),
        (True, "is a boolean"),
        ([2025], "is a list"),
        ({"t": 1}, "is an object"),
    ],
)
def test_bad_timestamps_raise_saying_why(value: object, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        hermes.parse_stamp(value, NOW)


@pytest.mark.parametrize(
    ("value", "expected"), [(0, 0), (7, 7), (7.0, 7), ("12", 12), (" 3 ", 3), (None, None)]
)
def test_counts(value: object, expected: int | None) -> None:
    assert hermes.parse_count(value) == expected


@pytest.mark.parametrize("value", [-1, 1.5, "many", "", True, [1], {"n": 1}])
def test_bad_counts_raise(value: object) -> None:
    with pytest.raises(ValueError, match="not a whole number"):
        hermes.parse_count(value)


# -- .usage.json ----------------------------------------------------------------------------


def _usage(doc: object) -> hermes.UsageFile:
    return hermes.parse_usage(json.dumps(doc).encode(), NOW)


def test_a_full_record_is_read() -> None:
    parsed = _usage(
        {
            "pdf": {
                "created_by": "agent",
                "use_count": 5,
                "view_count": 2,
                "patch_count": 3,
                "last_used_at": "2025-05-01T10:00:00+00:00",
                "last_viewed_at": "2025-05-02T10:00:00+00:00",
                "last_patched_at": "2025-04-01T10:00:00+00:00",
                "created_at": "2025-01-01T00:00:00+00:00",
                "state": "archived",
                "pinned": True,
                "archived_at": "2025-05-03T00:00:00+00:00",
            }
        }
    )
    assert parsed.problems == []
    assert parsed.keys == 1
    assert parsed.records["pdf"] == HermesUsage(
        agent=True,
        use_count=5,
        view_count=2,
        patch_count=3,
        last_used_at="2025-05-01T10:00:00Z",
        last_viewed_at="2025-05-02T10:00:00Z",
        last_patched_at="2025-04-01T10:00:00Z",
        created_at="2025-01-01T00:00:00Z",
        archived=True,
        archived_at="2025-05-03T00:00:00Z",
        pinned=True,
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({}, HermesUsage()),  # every field may be missing
        ({"created_by": None, "use_count": 1}, HermesUsage(use_count=1)),
        ({"created_by": "agent"}, HermesUsage(agent=True)),
        ({"agent_created": True}, HermesUsage(agent=True)),  # older Hermes
        ({"state": "stale"}, HermesUsage()),
        ({"state": "active", "archived_at": None}, HermesUsage()),
        ({"pinned": False, "patch_count": 0}, HermesUsage(patch_count=0)),
        ({"unknown_field": 1, "view_count": 2}, HermesUsage(view_count=2)),
    ],
)
def test_partial_records(raw: dict[str, Any], expected: HermesUsage) -> None:
    parsed = _usage({"k": raw})
    assert parsed.problems == []
    assert parsed.records == {"k": expected}


@pytest.mark.parametrize(
    ("raw", "expected", "problem"),
    [
        (
            {"use_count": "many", "view_count": 2},
            HermesUsage(view_count=2),
            "record 'k': use_count 'many' is not a whole number ≥ 0; field dropped",
        ),
        (
            {"last_used_at": "yesterday", "use_count": 1},
            HermesUsage(use_count=1),
            "record 'k': last_used_at 'yesterday' is not an ISO-8601 time",
        ),
        ({"pinned": "yes"}, HermesUsage(), "record 'k': pinned 'yes' is not true or false"),
        ({"state": "gone"}, HermesUsage(), "record 'k': state 'gone' is not one of active"),
        (
            {"created_by": "bot", "use_count": 1},
            HermesUsage(use_count=1),
            "record 'k': created_by 'bot' is not \"agent\" or null; taken as a user's skill",
        ),
        (
            {"created_at": 99999999999999},
            HermesUsage(),
            "record 'k': created_at 99999999999999 is not an ISO-8601 time or seconds",
        ),
    ],
)
def test_bad_fields_are_reported_and_dropped(
    raw: dict[str, Any], expected: HermesUsage, problem: str
) -> None:
    parsed = _usage({"k": raw})
    assert parsed.records == {"k": expected}
    assert len(parsed.problems) == 1
    assert parsed.problems[0].startswith(".usage.json: ")
    assert problem in parsed.problems[0]


@pytest.mark.parametrize(
    ("raw", "kind"), [([1, 2], "a list"), ("x", "a string"), (None, "null"), (3, "a number")]
)
def test_records_that_are_not_objects_are_skipped(raw: object, kind: str) -> None:
    parsed = _usage({"bad": raw, "good": {"use_count": 1}})
    assert parsed.records == {"good": HermesUsage(use_count=1)}
    assert parsed.keys == 2
    assert parsed.problems == [f".usage.json: record 'bad' is {kind}, not an object; skipped"]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b'{"a": {"use_count": 1}', "is not JSON (line 1, column 23"),
        (b"", "is not JSON"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b"[1, 2]", "is a list, not an object of records"),
        (b"null", "is null, not an object of records"),
        (b"[" * 100_000, "is not JSON"),
        (b'{"a": {"use_count": ' + b"9" * 5000 + b"}}", "is not JSON we can read"),
    ],
)
def test_a_usage_file_that_is_not_usable_is_one_problem(data: bytes, says: str) -> None:
    parsed = hermes.parse_usage(data, NOW)
    assert parsed.records == {}
    assert len(parsed.problems) == 1
    assert says in parsed.problems[0]
    assert "were not imported" in parsed.problems[0]


def test_a_utf8_bom_is_accepted() -> None:
    parsed = hermes.parse_usage(b'\xef\xbb\xbf{"a": {"use_count": 2}}', NOW)
    assert parsed.records == {"a": HermesUsage(use_count=2)}


# -- .hub/lock.json and .bundled_manifest ---------------------------------------------------


def test_hub_lock() -> None:
    data = {
        "version": 1,
        "installed": {
            "a": {"install_path": "cat/a/", "source": "github"},
            "b": {"source": "github"},
            "c": "not an object",
            "d": {"install_path": "  "},
        },
    }
    found, problems = hermes.parse_hub_lock(json.dumps(data).encode())
    assert found == {"a": "cat/a", "b": None, "c": None, "d": None}
    assert problems == []


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"{", "is not JSON"),
        (b'{"version": 1}', 'has no "installed" object'),
        (b'{"installed": []}', 'has no "installed" object'),
        (b"[]", 'has no "installed" object'),
    ],
)
def test_bad_hub_lock(data: bytes, says: str) -> None:
    found, problems = hermes.parse_hub_lock(data)
    assert found == {}
    assert len(problems) == 1 and says in problems[0]
    assert problems[0].startswith(".hub/lock.json ")


def test_bundled_manifest_both_versions() -> None:
    text = b"plan:3f2a\n\n  arxiv : 99 \nlegacy-name\r\n:only-hash\n"
    assert hermes.parse_bundled_manifest(text) == (["plan", "arxiv", "legacy-name"], [])


def test_bundled_manifest_not_utf8() -> None:
    names, problems = hermes.parse_bundled_manifest(b"plan\n\xff\n")
    assert names == []
    assert "is not UTF-8 text" in problems[0]


# -- names → identities ---------------------------------------------------------------------

LOCATIONS = [
    SkillLocation("mlops/inference/vllm", "mlops/inference/vllm/SKILL.md"),
    SkillLocation("notes", "notes/SKILL.md"),
    SkillLocation("swap", "swap/SKILL.md"),
    SkillLocation(".archive/old", ".archive/old/SKILL.md", archived=True),
    SkillLocation(".archive/notes", ".archive/notes/SKILL.md", archived=True),
]
NAMES = {
    "mlops/inference/vllm": "serving-llms-vllm",
    "swap": "notes-two",
    ".archive/old": "old",
    ".archive/notes": "notes",
}


@pytest.mark.parametrize(
    ("key", "skill"),
    [
        ("serving-llms-vllm", "vllm"),  # frontmatter name: Hermes' own key
        ("vllm", "vllm"),  # folder name
        ("mlops/inference/vllm", "vllm"),  # category/name
        ("mlops/inference/serving-llms-vllm", "vllm"),
        ("notes-two", "swap"),
        ("old", "old"),  # archived
        ("notes", "notes"),  # the live skill, never its archived namesake
        ("nothing", None),
        ("inference/vllm", None),
    ],
)
def test_keys_map_to_identities(key: str, skill: str | None) -> None:
    assert hermes.name_index(LOCATIONS, NAMES).get(key) == skill


def test_a_frontmatter_name_wins_over_another_skills_folder_name() -> None:
    locations = [SkillLocation("x", "x/SKILL.md"), SkillLocation("y", "y/SKILL.md")]
    # Hermes keys records by `name:`, so "y" is the skill in folder x.
    assert hermes.name_index(locations, {"x": "y", "y": "z"})["y"] == "x"


# -- the plan -------------------------------------------------------------------------------


def _plan(
    usage: object = None, hub: object = None, bundled: str | None = None
) -> hermes.ImportPlan:
    files = HermesFiles(
        json.dumps(usage).encode() if usage is not None else None,
        json.dumps(hub).encode() if hub is not None else None,
        bundled.encode() if bundled is not None else None,
    )
    return hermes.plan_import(LOCATIONS, NAMES, files, NOW)


def _lock(**paths: str) -> dict[str, Any]:
    return {"version": 1, "installed": {n: {"install_path": p} for n, p in paths.items()}}


@pytest.mark.parametrize(
    ("usage", "hub", "bundled", "origin"),
    [
        (None, None, None, None),  # no evidence: no recorded origin (reads as user)
        ({"notes": {}}, None, None, "user"),  # missing created_by
        ({"notes": {"created_by": None}}, None, None, "user"),
        ({"notes": {"created_by": "agent"}}, None, None, "agent"),
        ({"notes": {"created_by": "agent"}}, None, "notes:1f", "bundled"),
        ({"notes": {"created_by": "agent"}}, _lock(notes="notes"), "notes", "hub"),
        (None, _lock(other="notes"), None, "hub"),  # found by install_path
        (None, None, "notes", "bundled"),
    ],
)
def test_origin_precedence(usage: object, hub: object, bundled: str | None, origin: str) -> None:
    assert _plan(usage, hub, bundled).facts["notes"].origin == origin


def test_facts_of_a_used_skill() -> None:
    plan = _plan(
        {
            "serving-llms-vllm": {
                "created_by": "agent",
                "use_count": 4,
                "view_count": 1,
                "last_used_at": "2025-05-01T00:00:00Z",
                "created_at": "2025-01-01T00:00:00Z",
                "patch_count": 2,
                "pinned": True,
            }
        }
    )
    assert plan.problems == []
    assert (plan.usage_records, plan.usage_matched) == (1, 1)
    assert plan.facts["vllm"] == SkillFacts(
        archived=False,
        origin="agent",
        pinned=True,
        has_usage=True,
        counters=HostCounters(4, 1, "2025-05-01T00:00:00Z", None),
        imported=Imported("2025-01-01T00:00:00Z", 2, None),
    )
    assert plan.facts["swap"] == SkillFacts(archived=False)
    assert set(plan.facts) == {"vllm", "notes", "swap", "old"}


def test_archived_at_comes_only_with_an_archived_folder() -> None:
    archived = {"state": "archived", "archived_at": "2025-03-01T00:00:00Z"}
    plan = _plan({"old": archived, "swap": archived})
    assert plan.facts["old"].archived and plan.facts["old"].archived_at == "2025-03-01T00:00:00Z"
    assert plan.facts["swap"].archived_at is None
    assert plan.problems == [
        ".usage.json says swap is archived, but it is live at swap (not under .archive/); "
        "it was imported as live"
    ]


def test_unknown_keys_and_names_are_reported() -> None:
    plan = _plan(
        {"ghost": {"use_count": 1}, "notes": {"use_count": 1}},
        _lock(gone="cat/gone"),
        "notes:1\nmissing-a\nmissing-b\n",
    )
    assert (plan.usage_records, plan.usage_matched) == (2, 1)
    assert plan.problems == [
        ".usage.json: record 'ghost' names no skill in the folder; skipped",
        ".hub/lock.json lists skills not in the folder, ignored: gone",
        ".bundled_manifest lists skills not in the folder, ignored: missing-a, missing-b",
    ]


def test_two_keys_for_one_skill_are_added_up() -> None:
    plan = _plan(
        {
            "serving-llms-vllm": {"use_count": 2, "last_used_at": "2025-01-01T00:00:00Z"},
            "vllm": {"use_count": 3, "created_by": "agent", "created_at": "2024-01-01"},
        }
    )
    facts = plan.facts["vllm"]
    assert facts.counters == HostCounters(5, 0, "2025-01-01T00:00:00Z", None)
    assert facts.origin == "agent"
    assert facts.imported == Imported("2024-01-01T00:00:00Z", None, None)
    assert plan.problems == [
        ".usage.json: records 'serving-llms-vllm', 'vllm' all name skill vllm; "
        "their counts were added up"
    ]


def test_a_folder_that_is_no_valid_name_gets_no_record() -> None:
    locations = [SkillLocation("My_Skill", "My_Skill/SKILL.md")]
    plan = hermes.plan_import(locations, {}, HermesFiles(b'{"My_Skill": {"use_count": 1}}'), NOW)
    assert plan.facts == {}
    assert "skill folder 'My_Skill' is not a valid skill name" in plan.problems[0]


# -- merging into records -------------------------------------------------------------------

FACTS = SkillFacts(
    archived=True,
    origin="agent",
    pinned=True,
    has_usage=True,
    counters=HostCounters(5, 2, "2025-05-01T00:00:00Z", None),
    imported=Imported("2025-01-01T00:00:00Z", 3, None),
    archived_at="2025-06-01T00:00:00Z",
)


def test_merge_into_a_new_record() -> None:
    assert hermes.merge_facts(None, "x", FACTS, NOW_TEXT) == UsageRecord(
        "x",
        origin=Stamped("agent", NOW_TEXT),
        pinned=Stamped(True, NOW_TEXT),
        hosts={"hermes-import": FACTS.counters},  # type: ignore[dict-item]
        imported=FACTS.imported,
        archived_at="2025-06-01T00:00:00Z",
    )


def test_merging_again_changes_nothing() -> None:
    once = hermes.merge_facts(None, "x", FACTS, NOW_TEXT)
    assert hermes.merge_facts(once, "x", FACTS, "2026-07-01T00:00:00Z") == once


def test_new_hermes_counts_replace_the_imported_host_and_keep_real_hosts() -> None:
    laptop = HostCounters(1, 1, "2026-05-01T00:00:00Z", None)
    before = UsageRecord("x", hosts={"hermes-import": HostCounters(5, 2), "laptop": laptop})
    later = SkillFacts(archived=False, has_usage=True, counters=HostCounters(9, 2))
    after = hermes.merge_facts(before, "x", later, NOW_TEXT)
    assert after.hosts == {"hermes-import": HostCounters(9, 2), "laptop": laptop}
    assert after.use_count == 10
    emptied = SkillFacts(archived=False, has_usage=True, counters=None)
    assert hermes.merge_facts(after, "x", emptied, NOW_TEXT).hosts == {"laptop": laptop}


def test_gitcurators_own_choices_win_over_hermes() -> None:
    mine = UsageRecord(
        "x",
        origin=Stamped("user", "2026-01-01T00:00:00Z"),
        pinned=Stamped(False, "2026-01-01T00:00:00Z"),
        archived_at="2026-02-01T00:00:00Z",
    )
    after = hermes.merge_facts(mine, "x", FACTS, NOW_TEXT)
    assert after.origin == mine.origin and after.pinned == mine.pinned
    assert after.archived_at == "2026-02-01T00:00:00Z"  # the later archive time


def test_facts_without_usage_leave_counters_alone() -> None:
    before = UsageRecord("x", hosts={"hermes-import": HostCounters(5, 2)})
    after = hermes.merge_facts(before, "x", SkillFacts(archived=False, origin="hub"), NOW_TEXT)
    assert after.hosts == before.hosts
    assert after.origin == Stamped("hub", NOW_TEXT)


# -- Hermes' state in git -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "state"),
    [
        (".usage.json", True),
        (".hub", True),
        (".curator_state", True),
        (".some_future_file", True),
        (".archive", False),
        (".git", False),
        (".gitignore", False),
        (".gitcurator.yaml", False),
        (".curator", False),
        ("devops", False),
    ],
)
def test_state_entries(name: str, state: bool) -> None:
    assert hermes.is_state_entry(name) is state


def test_ignore_patterns_add_unknown_state_escaped() -> None:
    patterns = hermes.ignore_patterns([".usage_x1.tmp", ".odd*name", ".hub"])
    assert "/.usage.json" in patterns and "/.hub" in patterns and "/.usage_*.tmp" in patterns
    assert patterns[-1] == "/.odd\\*name"
    assert len(patterns) == len(hermes.KNOWN_STATE) + 1


@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        (None, f"{hermes.IGNORE_HEADER}\n/.a\n/.b\n"),
        ("*.log", f"*.log\n\n{hermes.IGNORE_HEADER}\n/.a\n/.b\n"),
        ("*.log\n/.a\n", f"*.log\n/.a\n\n{hermes.IGNORE_HEADER}\n/.b\n"),
        ("/.b\n/.a\n", None),
    ],
)
def test_gitignore_gets_only_what_is_missing(existing: str | None, expected: str | None) -> None:
    assert hermes.updated_gitignore(existing, ["/.a", "/.b"]) == expected


# -- end to end -----------------------------------------------------------------------------

USAGE: dict[str, Any] = {
    # agent-made, pinned, with a history older than any commit
    "docker-build": {
        "created_by": "agent",
        "use_count": 5,
        "view_count": 2,
        "patch_count": 3,
        "last_used_at": "2025-05-01T10:00:00+02:00",
        "last_patched_at": "2025-04-01T00:00:00",
        "created_at": "2025-01-01T00:00:00+00:00",
        "pinned": True,
        "state": "active",
    },
    # keyed by its frontmatter name; made by a person (created_by null); epoch time
    "arxiv-search": {"created_by": None, "use_count": 1, "last_viewed_at": 1735689600},
    "old-thing": {
        "created_by": "agent",
        "state": "archived",
        "archived_at": "2025-03-01T00:00:00Z",
        "use_count": 7,
    },
    "helm-deploy": {"use_count": "many", "view_count": 4, "last_used_at": "yesterday"},
    "notes": [1, 2],
    "ghost": {"use_count": 1},
}


@pytest.fixture
def hermes_dir(tmp_path: Path) -> Path:
    """A Hermes skills folder: categories, an archive, usage, hub lock, bundled manifest."""
    root = tmp_path / "hermes-skills"
    write_skill(root, "devops/docker-build")
    write_skill(root, "devops/k8s/helm-deploy")
    write_skill(root, "research/arxiv", name="arxiv-search")
    write_skill(root, "notes")
    write_skill(root, ".archive/old-thing")
    (root / "devops" / "DESCRIPTION.md").write_text("Building and shipping.\n")
    (root / ".usage.json").write_text(json.dumps(USAGE, indent=2))
    (root / ".usage.json.lock").write_text(" ")
    (root / ".hub").mkdir()
    (root / ".hub" / "lock.json").write_text(
        json.dumps(_lock(**{"helm-deploy": "devops/k8s/helm-deploy"}))
    )
    (root / ".hub" / "audit.log").write_text("installed helm-deploy\n")
    (root / ".bundled_manifest").write_text("notes:0af3\nremoved-by-user:11\n")
    (root / ".curator_state").write_text('{"last_run_at": null}')
    return root


def _import(*args: str) -> CliResult:
    return run_cli("import", "hermes", *args)


def _rows(repo: Path) -> dict[str, dict[str, Any]]:
    result = run_cli("list", "--json", "-C", str(repo))
    assert result.code == 0, result
    return {row["name"]: row for row in json.loads(result.out)}


def _count(repo: Path, ref: str) -> int:
    return int(git("rev-list", "--count", ref, cwd=repo).stdout)


def _assert_clean(repo: Path) -> None:
    assert git("status", "--porcelain", "--ignored=no", cwd=repo).stdout == ""
    fsck = git("fsck", "--strict", cwd=repo, check=False)
    assert fsck.returncode == 0 and fsck.stderr.strip() == "", fsck.stderr


def _assert_imported(repo: Path) -> None:
    rows = _rows(repo)
    assert set(rows) >= {"docker-build", "helm-deploy", "arxiv", "notes", "old-thing"}
    docker = rows["docker-build"]
    assert (docker["origin"], docker["pinned"], docker["state"]) == ("agent", True, "active")
    assert (docker["use_count"], docker["view_count"]) == (5, 2)
    assert docker["last_used_at"] == "2025-05-01T08:00:00Z"
    # The import's history is older than the repository's first commit, and wins.
    assert docker["created_at"] == "2025-01-01T00:00:00Z"
    assert (docker["patch_count"], docker["last_patched_at"]) == (3, "2025-04-01T00:00:00Z")
    arxiv = rows["arxiv"]
    assert (arxiv["origin"], arxiv["use_count"]) == ("user", 1)
    assert arxiv["last_viewed_at"] == "2025-01-01T00:00:00Z"
    helm = rows["helm-deploy"]  # hub wins; its broken fields dropped, the rest kept
    assert (helm["origin"], helm["use_count"], helm["view_count"]) == ("hub", 0, 4)
    assert rows["notes"]["origin"] == "bundled"
    old = rows["old-thing"]
    assert (old["state"], old["origin"], old["use_count"]) == ("archived", "agent", 7)
    assert old["archived_at"] == "2025-03-01T00:00:00Z"
    assert not any(r["pinned"] for n, r in rows.items() if n != "docker-build")


def test_import_in_place(hermes_dir: Path) -> None:
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert "imported 4 skills (1 archived)" in result.out and "in place" in result.out
    assert "origins: 2 agent, 1 user, 1 bundled, 1 hub; pinned: 1" in result.out
    for problem in (
        "record 'notes' is a list, not an object; skipped",
        "record 'helm-deploy': use_count 'many' is not a whole number",
        "record 'helm-deploy': last_used_at 'yesterday' is not an ISO-8601 time",
        "record 'ghost' names no skill in the folder; skipped",
        ".bundled_manifest lists skills not in the folder, ignored: removed-by-user",
    ):
        assert problem in result.err
    _assert_clean(hermes_dir)
    assert _count(hermes_dir, "HEAD") == 1 and _count(hermes_dir, NOTES) == 1
    assert git("symbolic-ref", "HEAD", cwd=hermes_dir).stdout.strip() == "refs/heads/main"
    log = git("log", "-1", "--format=%s%n%(trailers:key=Curator-Import,valueonly)", cwd=hermes_dir)
    assert log.stdout.split("\n")[:2] == ["gitcurator: import 4 skills from Hermes", "hermes"]
    tracked = git("ls-files", cwd=hermes_dir).stdout.split()
    assert tracked == [
        ".archive/old-thing/SKILL.md",
        ".gitcurator.yaml",
        ".gitignore",
        "devops/DESCRIPTION.md",
        "devops/docker-build/SKILL.md",
        "devops/k8s/helm-deploy/SKILL.md",
        "notes/SKILL.md",
        "research/arxiv/SKILL.md",
    ]
    # Hermes' files stay where Hermes expects them, untouched, and ignored.
    assert json.loads((hermes_dir / ".usage.json").read_text()) == USAGE
    ignored = git("status", "--porcelain", "--ignored", cwd=hermes_dir).stdout
    for name in (".usage.json", ".usage.json.lock", ".hub/", ".bundled_manifest", ".curator_state"):
        assert f"!! {name}\n" in ignored
    assert git("notes", f"--ref={NOTES}", "list", cwd=hermes_dir).stdout.count("\n") == 5
    _assert_imported(hermes_dir)


def test_show_agrees(hermes_dir: Path) -> None:
    assert _import(str(hermes_dir)).code == 0
    result = run_cli("show", "arxiv-search", "--json", "-C", str(hermes_dir))
    assert result.code == 0, result
    assert json.loads(result.out)["name"] == "arxiv"


def test_reimport_is_harmless_and_follows_hermes(hermes_dir: Path) -> None:
    assert _import(str(hermes_dir)).code == 0
    head = git("rev-parse", "HEAD", NOTES, cwd=hermes_dir).stdout
    gitignore = (hermes_dir / ".gitignore").read_text()
    again = _import(str(hermes_dir))
    assert again.code == 0, again
    assert "no changes to commit" in again.out and "records already up to date" in again.out
    assert git("rev-parse", "HEAD", NOTES, cwd=hermes_dir).stdout == head
    assert (hermes_dir / ".gitignore").read_text() == gitignore
    _assert_imported(hermes_dir)
    # gitcurator's own choices survive; events on a real host add to Hermes' counts.
    assert run_cli("unpin", "docker-build", "-C", str(hermes_dir)).code == 0
    assert run_cli("record", "use", "docker-build", "-C", str(hermes_dir)).code == 0
    # Hermes keeps counting and writes a new skill; the import takes both over.
    usage = dict(USAGE, **{"docker-build": dict(USAGE["docker-build"], use_count=8)})
    (hermes_dir / ".usage.json").write_text(json.dumps(usage))
    write_skill(hermes_dir, "devops/new-one")
    third = _import(str(hermes_dir))
    assert third.code == 0, third
    assert _count(hermes_dir, "HEAD") == 2
    rows = _rows(hermes_dir)
    assert rows["docker-build"]["use_count"] == 8 + 1  # replaced, not added, plus the event
    assert rows["docker-build"]["pinned"] is False
    assert rows["new-one"]["origin"] == "user"
    _assert_clean(hermes_dir)


def test_a_skill_hermes_archives_later_moves_on_reimport(hermes_dir: Path) -> None:
    assert _import(str(hermes_dir)).code == 0
    shutil.move(hermes_dir / "research" / "arxiv", hermes_dir / ".archive" / "arxiv")
    usage = dict(USAGE)
    usage["arxiv-search"] = dict(
        usage["arxiv-search"], state="archived", archived_at="2025-06-01T00:00:00+00:00"
    )
    (hermes_dir / ".usage.json").write_text(json.dumps(usage))
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert _count(hermes_dir, "HEAD") == 2 and _count(hermes_dir, NOTES) == 2
    arxiv = _rows(hermes_dir)["arxiv"]
    assert (arxiv["state"], arxiv["path"]) == ("archived", ".archive/arxiv")
    assert (arxiv["archived_at"], arxiv["use_count"]) == ("2025-06-01T00:00:00Z", 1)
    _assert_clean(hermes_dir)


def test_import_into_another_repository(hermes_dir: Path, repo: Path) -> None:
    before = _count(repo, "HEAD")
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 0, result
    assert f"into {repo}" in result.out
    assert not (hermes_dir / ".git").exists() and not (hermes_dir / ".gitignore").exists()
    _assert_clean(repo)
    assert _count(repo, "HEAD") == before + 1 and _count(repo, NOTES) == 1
    tracked = git("ls-files", cwd=repo).stdout.split()
    assert "devops/DESCRIPTION.md" in tracked and ".archive/old-thing/SKILL.md" in tracked
    assert not any(".usage" in p or ".hub" in p or ".curator_state" in p for p in tracked)
    assert "pdf-extract/SKILL.md" in tracked  # the repository's own skills stay
    _assert_imported(repo)
    # Again: the copies are already there and equal, so nothing happens.
    heads = git("rev-parse", "HEAD", NOTES, cwd=repo).stdout
    assert _import(str(hermes_dir), "-C", str(repo)).code == 0
    assert git("rev-parse", "HEAD", NOTES, cwd=repo).stdout == heads


def test_import_into_a_new_folder_creates_the_repository(hermes_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "new" / "library"
    result = _import(str(hermes_dir), "-C", str(target), "--json")
    assert result.code == 0, result
    report = json.loads(result.out)
    assert report["in_place"] is False and report["repository"] == str(target)
    assert report["skills"] == 4 and report["archived"] == 1
    assert report["by_origin"] == {"agent": 2, "user": 1, "bundled": 1, "hub": 1}
    assert report["pinned"] == 1
    assert report["usage_records"] == {"read": 6, "imported": 4, "skipped": 2}
    assert report["commit"] and report["notes_commit"]
    assert len(report["problems"]) == 5
    assert report["validation"] == {"errors": 0, "warnings": 1}  # arxiv: name ≠ folder
    _assert_clean(target)
    assert _count(target, "HEAD") == 1
    _assert_imported(target)


def test_a_skill_that_would_be_overwritten_refuses_everything(hermes_dir: Path, repo: Path) -> None:
    write_skill(repo, "notes", description="Use when taking the repository's own notes.")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "own notes", cwd=repo)
    heads = git("rev-parse", "HEAD", cwd=repo).stdout
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 1, result
    assert "would overwrite or duplicate 1 skill" in result.err
    assert "notes differs from" in result.err and "Nothing was written" in result.err
    assert git("rev-parse", "HEAD", cwd=repo).stdout == heads
    assert git("status", "--porcelain", "--ignored", cwd=repo).stdout == ""
    assert git("show-ref", NOTES, cwd=repo, check=False).returncode == 1


def test_a_second_skill_of_the_same_name_is_refused(hermes_dir: Path, repo: Path) -> None:
    write_skill(repo, "writing/notes")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "notes elsewhere", cwd=repo)
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 1, result
    assert "writing/notes is also named notes" in result.err
    assert git("status", "--porcelain", "--ignored", cwd=repo).stdout == ""


def test_a_loose_file_that_differs_is_kept_and_reported(hermes_dir: Path, repo: Path) -> None:
    (repo / "devops" / "DESCRIPTION.md").write_text("The repository's own words.\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "describe devops", cwd=repo)
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 0, result
    assert "devops/DESCRIPTION.md differs from" in result.err and "kept as it is" in result.err
    assert (repo / "devops" / "DESCRIPTION.md").read_text() == "The repository's own words.\n"
    _assert_clean(repo)


def test_a_hermes_folder_versioned_by_hand(hermes_dir: Path) -> None:
    # Someone committed everything, Hermes' state included, before gitcurator.
    (hermes_dir / ".editorconfig").write_text("root = true\n")
    git("init", "-q", "-b", "main", cwd=hermes_dir)
    git("add", "-A", cwd=hermes_dir)
    git("commit", "-qm", "my hermes skills", cwd=hermes_dir)
    (hermes_dir / ".some_future_state").write_text("Hermes wrote this later")
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert _count(hermes_dir, "HEAD") == 2
    tracked = git("ls-files", cwd=hermes_dir).stdout.split()
    assert ".usage.json" not in tracked and ".hub/lock.json" not in tracked
    assert ".editorconfig" in tracked  # a person's dot-file the repository already tracked
    assert (hermes_dir / ".usage.json").exists()  # left on disk for Hermes
    assert "/.some_future_state" in (hermes_dir / ".gitignore").read_text()
    assert "/.editorconfig" not in (hermes_dir / ".gitignore").read_text()
    _assert_clean(hermes_dir)
    _assert_imported(hermes_dir)


def test_uncommitted_work_in_the_target_refuses_and_is_left_alone(
    hermes_dir: Path, repo: Path
) -> None:
    (repo / "pdf-extract" / "SKILL.md").write_text("work in progress\n")
    result = _import(str(hermes_dir), "-C", str(repo))
    assert result.code == 1, result
    assert "uncommitted changes outside the import (pdf-extract/SKILL.md)" in result.err
    assert not (repo / "research").exists() and not (repo / ".archive").exists()
    assert git("status", "--porcelain", cwd=repo).stdout == " M pdf-extract/SKILL.md\n"


def test_validation_errors_refuse_and_leave_the_folder_as_it_was(hermes_dir: Path) -> None:
    write_skill(hermes_dir, "broken", body="no frontmatter here\n")
    before = sorted(p.relative_to(hermes_dir) for p in hermes_dir.rglob("*"))
    result = _import(str(hermes_dir))
    assert result.code == 1, result
    assert "broken/SKILL.md" in result.err and "nothing was written" in result.err
    assert "--no-verify" in result.err
    assert sorted(p.relative_to(hermes_dir) for p in hermes_dir.rglob("*")) == before
    forced = _import(str(hermes_dir), "--no-verify")
    assert forced.code == 0, forced
    assert "broken/SKILL.md" in git("ls-files", cwd=hermes_dir).stdout
    _assert_clean(hermes_dir)


def test_a_usage_file_that_is_not_json_still_imports_the_rest(hermes_dir: Path) -> None:
    (hermes_dir / ".usage.json").write_text('{"docker-build": {"use_count": 5')
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert ".usage.json is not JSON (line 1" in result.err
    rows = _rows(hermes_dir)
    assert rows["helm-deploy"]["origin"] == "hub" and rows["notes"]["origin"] == "bundled"
    assert rows["docker-build"]["origin"] == "user" and rows["docker-build"]["use_count"] == 0


def test_a_folder_without_hermes_files_is_imported_like_init(library: Path) -> None:
    result = _import(str(library))
    assert result.code == 0, result
    assert "imported 3 skills" in result.out and "records already up to date" in result.out
    assert _count(library, "HEAD") == 1
    assert git("show-ref", NOTES, cwd=library, check=False).returncode == 1
    _assert_clean(library)


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_path_must_be_a_folder(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "skills"
    if kind == "file":
        path.write_text("x")
    result = _import(str(path))
    assert result.code == 2, result
    assert "Traceback" not in result.err


def test_a_folder_inside_another_repository_is_refused(hermes_dir: Path, tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    result = _import(str(hermes_dir))
    assert result.code == 1, result
    assert f"overlaps the git repository {tmp_path}" in result.err
    assert "-C NEW-FOLDER" in result.err
    assert not (hermes_dir / ".git").exists() and not (hermes_dir / ".gitignore").exists()


def test_in_place_into_a_repositorys_skills_dir(hermes_dir: Path, tmp_path: Path) -> None:
    # A repository whose skills_dir is the Hermes folder takes it over where it is.
    (tmp_path / ".gitcurator.yaml").write_text("skills_dir: hermes-skills\n")
    git("init", "-q", "-b", "main", cwd=tmp_path)
    git("add", ".gitcurator.yaml", cwd=tmp_path)
    git("commit", "-qm", "config", cwd=tmp_path)
    result = _import(str(hermes_dir))
    assert result.code == 0, result
    assert "in place" in result.out
    assert (hermes_dir / ".gitignore").exists()
    _assert_clean(tmp_path)
    _assert_imported(tmp_path)


# -- the 177 real Hermes skills -------------------------------------------------------------

# Skills keyed by their frontmatter names, which differ from their folders (4 of the 18).
REAL_KEYS = {
    "serving-llms-vllm": "vllm",
    "evaluating-llms-harness": "lm-evaluation-harness",
    "here.now": "here-now",
    "fine-tuning-with-trl": "trl-fine-tuning",
}


@pytest.fixture(scope="module")
def hermes_library() -> Path:
    """The 177 skills of hermes-agent 0.19.0 (tests/data/fetch.py; skipped when offline)."""
    path = Path(__file__).parents[1] / "data" / "fetch.py"
    spec = importlib.util.spec_from_file_location("gitcurator_test_data_fetch", path)
    assert spec is not None and spec.loader is not None
    fetch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fetch)
    try:
        return Path(fetch.hermes_skills())
    except fetch.FetchError as exc:
        pytest.skip(str(exc))


def test_the_real_hermes_library(hermes_library: Path, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    shutil.copytree(hermes_library, root, symlinks=True)
    usage: dict[str, Any] = {
        name: {"created_by": "agent", "use_count": i + 1, "created_at": "2025-02-01T00:00:00"}
        for i, name in enumerate(REAL_KEYS)
    }
    usage["optional-skills/mlops/accelerate"] = {"view_count": 3}  # a category/name key
    usage["plan"] = {"pinned": True, "use_count": 9}
    (root / ".usage.json").write_text(json.dumps(usage))
    (root / ".bundled_manifest").write_text("plan:aa\nserving-llms-vllm:bb\n")
    result = _import(str(root))  # Hermes' skills give warnings only: no --no-verify needed
    assert result.code == 0, result
    assert "imported 177 skills (0 archived)" in result.out
    assert result.err == ""
    _assert_clean(root)
    assert _count(root, "HEAD") == 1 and _count(root, NOTES) == 1
    rows = _rows(root)
    assert len(rows) == 177
    for i, (key, folder) in enumerate(REAL_KEYS.items()):
        assert rows[folder]["use_count"] == i + 1, key
        assert rows[folder]["created_at"] == "2025-02-01T00:00:00Z"
    assert rows["vllm"]["origin"] == "bundled"  # the manifest wins over created_by
    assert rows["here-now"]["origin"] == "agent"
    assert rows["accelerate"]["view_count"] == 3
    assert (rows["plan"]["pinned"], rows["plan"]["origin"]) == (True, "bundled")
    assert rows["lm-evaluation-harness"]["origin"] == "agent"
    assert sum(r["origin"] == "user" for r in rows.values()) == 177 - 3 - 2

"""The hooks with the real `git` and the real pre-commit framework, not simulations of them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from pre_commit.clientlib import load_manifest
from support.repos import git, run_cli, write_skill

PROJECT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
HOOK_ID = "gitcurator-validate"

BROKEN_SKILL = (
    "---\nname: broken\n---\n\n# broken\n\nNo description, so no agent will ever pick it.\n"
)


def git_env(path: str | None = None) -> dict[str, str]:
    """The test's environment with the venv's bin first on PATH, as a user's shell would have."""
    env = dict(os.environ)
    env["PATH"] = path if path is not None else f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


def commit(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A real `git commit`, so git runs the installed hook the way it does for a person."""
    return subprocess.run(
        ["git", "commit", "-q", *args],
        cwd=repo,
        env=env or git_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def head(repo: Path) -> str:
    return git("rev-parse", "HEAD", cwd=repo).stdout.strip()


def install(repo: Path, *args: str) -> None:
    result = run_cli("hooks", "install", "-C", str(repo), *args)
    assert result.code == 0, result


def fake_token() -> str:
    # Built at run time so this file holds no string that secret scanners would flag.
    return "ghp_" + "Zq7RkP2mXc9Lw4Tn" * 2 + "Ab3D"


@pytest.fixture
def hooked(repo: Path) -> Path:
    """The `repo` fixture with gitcurator's pre-commit hook installed."""
    install(repo)
    return repo


# -- the plain git hook -------------------------------------------------------------------


def test_commit_of_a_skill_without_description_is_refused(hooked: Path) -> None:
    before = head(hooked)
    (hooked / "broken").mkdir()
    (hooked / "broken" / "SKILL.md").write_text(BROKEN_SKILL)
    git("add", "broken", cwd=hooked)
    done = commit(hooked, "-m", "add broken skill")
    assert done.returncode != 0
    assert "broken/SKILL.md" in done.stderr
    assert "description" in done.stderr
    assert head(hooked) == before


def test_commit_of_a_secret_in_a_support_file_is_refused(hooked: Path) -> None:
    before = head(hooked)
    notes = hooked / "pdf-extract" / "references" / "notes.md"
    notes.parent.mkdir()
    notes.write_text(f"# Notes\n\nexport GITHUB_TOKEN={fake_token()}\n")
    git("add", "-A", cwd=hooked)
    done = commit(hooked, "-m", "add notes")
    assert done.returncode != 0
    assert "pdf-extract/references/notes.md" in done.stderr
    assert "[secret]" in done.stderr
    assert fake_token() not in done.stderr  # the report must not leak the secret itself
    assert head(hooked) == before


@pytest.mark.parametrize("old_bad", [False, True], ids=["clean-library", "old-bad-skill"])
def test_commit_of_a_good_skill_goes_through(hooked: Path, old_bad: bool) -> None:
    # An old bad skill (past the hook by --no-verify) must not refuse another skill's commit.
    if old_bad:
        _old_bad_skill(hooked)
    before = head(hooked)
    write_skill(hooked, "data/csv-clean")
    git("add", "-A", cwd=hooked)
    done = commit(hooked, "-m", "add csv-clean")
    assert done.returncode == 0, done.stderr
    assert git("rev-parse", "HEAD~1", cwd=hooked).stdout.strip() == before
    assert "data/csv-clean/SKILL.md" in git("ls-files", cwd=hooked).stdout
    # The whole-library view still sees the old one.
    assert run_cli("validate", "-C", str(hooked)).code == (1 if old_bad else 0)


def test_no_verify_skips_the_hook_once(hooked: Path) -> None:
    write_skill(hooked, "broken", body=BROKEN_SKILL)
    git("add", "-A", cwd=hooked)
    assert commit(hooked, "--no-verify", "-m", "on purpose").returncode == 0


@pytest.mark.parametrize(
    "args",
    [["-a"], ["--", "pdf-extract/SKILL.md"]],
    ids=["commit-a", "commit-path"],
)
def test_commit_a_and_commit_path_check_gits_temporary_index(hooked: Path, args: list[str]) -> None:
    # Both make git write a temporary index and point GIT_INDEX_FILE at it for the hook: the
    # edit is in no index the hook would find without that variable.
    before = head(hooked)
    write_skill(hooked, "pdf-extract", body=BROKEN_SKILL.replace("broken", "pdf-extract"))
    done = commit(hooked, "-m", "drop the description", *args)
    assert done.returncode != 0
    assert "pdf-extract/SKILL.md" in done.stderr
    assert head(hooked) == before
    # Refused, not lost: the edit is still in the work tree.
    assert "pdf-extract/SKILL.md" in git("diff", "--name-only", cwd=hooked).stdout


def test_hook_checks_the_index_not_the_work_tree(hooked: Path) -> None:
    write_skill(hooked, "data/csv-clean")
    git("add", "-A", cwd=hooked)
    # Broken in the work tree only: the commit holds the staged, good version.
    write_skill(hooked, "data/csv-clean", body=BROKEN_SKILL.replace("broken", "csv-clean"))
    done = commit(hooked, "-m", "add csv-clean")
    assert done.returncode == 0, done.stderr
    committed = git("show", "HEAD:data/csv-clean/SKILL.md", cwd=hooked).stdout
    assert "description: Use when a task needs csv-clean." in committed


def test_hook_refuses_a_broken_index_even_if_the_work_tree_is_fixed(hooked: Path) -> None:
    before = head(hooked)
    write_skill(hooked, "data/csv-clean", body=BROKEN_SKILL.replace("broken", "csv-clean"))
    git("add", "-A", cwd=hooked)
    write_skill(hooked, "data/csv-clean")  # fixed, but not added
    done = commit(hooked, "-m", "add csv-clean")
    assert done.returncode != 0
    assert "data/csv-clean/SKILL.md" in done.stderr
    assert head(hooked) == before


def test_hook_falls_back_to_gitcurator_on_path(hooked: Path) -> None:
    # The interpreter recorded at install time is gone (venv rebuilt): PATH's gitcurator runs.
    hook = hooked / ".git" / "hooks" / "pre-commit"
    text = hook.read_text()
    assert f'GITCURATOR_PYTHON="{sys.executable}"' in text
    hook.write_text(text.replace(sys.executable, str(hooked / "gone" / "python")))
    write_skill(hooked, "broken", body=BROKEN_SKILL)
    git("add", "-A", cwd=hooked)
    done = commit(hooked, "-m", "broken")
    assert done.returncode != 0
    assert "broken/SKILL.md" in done.stderr


def test_hook_without_gitcurator_refuses_and_says_how_to_fix(hooked: Path) -> None:
    hook = hooked / ".git" / "hooks" / "pre-commit"
    hook.write_text(hook.read_text().replace(sys.executable, str(hooked / "gone" / "python")))
    write_skill(hooked, "data/csv-clean")
    git("add", "-A", cwd=hooked)
    # A PATH with git and sh but no gitcurator.
    bare_path = os.pathsep.join(
        str(Path(tool).parent) for tool in (shutil.which("git"), shutil.which("sh")) if tool
    )
    done = commit(hooked, "-m", "add", env=git_env(path=bare_path))
    assert done.returncode != 0
    assert "gitcurator is not installed" in done.stderr
    assert "--no-verify" in done.stderr


# -- the change, not the whole tree ---------------------------------------------------------

GUIDE_LINK = "See [the guide](../devops/docker-build/references/guide.md).\n"


def _old_bad_skill(repo: Path) -> None:
    """A bad skill already committed past the hook, as `--no-verify` or `init --no-verify` do."""
    write_skill(repo, "broken", body=BROKEN_SKILL)
    git("add", "-A", cwd=repo)
    assert commit(repo, "--no-verify", "-m", "broken on purpose").returncode == 0


def _linked_guide(repo: Path) -> None:
    """pdf-extract links into docker-build's references, committed."""
    guide = repo / "devops" / "docker-build" / "references" / "guide.md"
    guide.parent.mkdir()
    guide.write_text("# Guide\n")
    skill_md = repo / "pdf-extract" / "SKILL.md"
    skill_md.write_text(
        skill_md.read_text().replace("# pdf-extract\n", "# pdf-extract\n\n" + GUIDE_LINK)
    )
    git("add", "-A", cwd=repo)
    assert commit(repo, "--no-verify", "-m", "link the guide").returncode == 0


def test_a_new_bad_skill_is_refused_beside_an_old_one_and_only_it_is_named(hooked: Path) -> None:
    _old_bad_skill(hooked)
    before = head(hooked)
    write_skill(hooked, "data/csv-clean", body=BROKEN_SKILL.replace("broken", "csv-clean"))
    git("add", "-A", cwd=hooked)
    done = commit(hooked, "-m", "add csv-clean")
    assert done.returncode != 0
    assert "data/csv-clean/SKILL.md" in done.stderr
    assert "broken/SKILL.md" not in done.stderr.replace("data/csv-clean/SKILL.md", "")
    assert head(hooked) == before


def test_renaming_a_skill_into_a_duplicate_name_is_refused(hooked: Path) -> None:
    _old_bad_skill(hooked)
    before = head(hooked)
    git("mv", "devops/docker-build", "devops/pdf-extract", cwd=hooked)
    write_skill(hooked, "devops/pdf-extract")
    git("add", "-A", cwd=hooked)
    done = commit(hooked, "-m", "rename docker-build")
    assert done.returncode != 0
    assert "[duplicate-name]" in done.stderr and "devops/pdf-extract/SKILL.md" in done.stderr
    assert head(hooked) == before


def test_a_change_that_breaks_a_link_of_an_unchanged_skill_is_refused(hooked: Path) -> None:
    _old_bad_skill(hooked)
    _linked_guide(hooked)
    before = head(hooked)
    git("rm", "-q", "devops/docker-build/references/guide.md", cwd=hooked)
    done = commit(hooked, "-m", "drop the guide")
    assert done.returncode != 0
    assert "pdf-extract/SKILL.md" in done.stderr and "[broken-link]" in done.stderr
    assert "broken/SKILL.md" not in done.stderr.replace("pdf-extract/SKILL.md", "")
    assert head(hooked) == before
    # A link that was broken before the change is not the change's doing.
    assert commit(hooked, "--no-verify", "-m", "drop the guide").returncode == 0
    write_skill(hooked, "data/csv-clean")
    git("add", "-A", cwd=hooked)
    done = commit(hooked, "-m", "add csv-clean")
    assert done.returncode == 0, done.stderr


def test_gitcurator_commit_checks_the_change_as_the_hook_does(repo: Path) -> None:
    _old_bad_skill(repo)
    write_skill(repo, "data/csv-clean")
    assert run_cli("commit", "-m", "add csv-clean", "-C", str(repo)).code == 0
    _linked_guide(repo)
    (repo / "devops" / "docker-build" / "references" / "guide.md").unlink()
    before = head(repo)
    result = run_cli("commit", "-m", "drop the guide", "-C", str(repo))
    assert result.code == 1, result
    assert "pdf-extract/SKILL.md" in result.err and "[broken-link]" in result.err
    assert head(repo) == before


# -- hooks install ------------------------------------------------------------------------

FOREIGN_HOOK = "#!/bin/sh\n# someone else's hook\nexit 0\n"


def test_install_refuses_to_overwrite_a_foreign_hook(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(FOREIGN_HOOK)
    result = run_cli("hooks", "install", "-C", str(repo))
    assert result.code == 1
    assert "--force" in result.err
    assert hook.read_text() == FOREIGN_HOOK
    assert not (hook.parent / "pre-commit.backup").exists()


def test_install_force_replaces_a_foreign_hook_and_keeps_a_backup(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(FOREIGN_HOOK)
    install(repo, "--force")
    assert (hook.parent / "pre-commit.backup").read_text() == FOREIGN_HOOK
    assert "gitcurator validate --staged" in hook.read_text()
    assert os.access(hook, os.X_OK)


def test_install_again_replaces_its_own_hook_without_force(hooked: Path) -> None:
    install(hooked)
    assert not (hooked / ".git" / "hooks" / "pre-commit.backup").exists()


def _hooks_dir_is_a_file(repo: Path) -> None:
    shutil.rmtree(repo / ".git" / "hooks")
    (repo / ".git" / "hooks").write_text("not a folder\n")


def _pre_commit_is_a_folder(repo: Path) -> None:
    (repo / ".git" / "hooks" / "pre-commit").mkdir(parents=True)


def _hooks_path_under_a_file(repo: Path) -> None:
    (repo / "notes.txt").write_text("a file\n")
    git("config", "core.hooksPath", "notes.txt/hooks", cwd=repo)


@pytest.mark.parametrize(
    "setup", [_hooks_dir_is_a_file, _pre_commit_is_a_folder, _hooks_path_under_a_file]
)
def test_install_where_no_hook_can_be_written_says_so_without_a_crash(
    repo: Path, setup: Callable[[Path], None]
) -> None:
    setup(repo)
    result = run_cli("hooks", "install", "-C", str(repo))
    assert result.code == 1, result
    assert "cannot install" in result.err and "core.hooksPath" in result.err
    assert not list(repo.rglob("pre-commit.tmp"))


def test_install_honours_core_hooks_path(repo: Path) -> None:
    git("config", "core.hooksPath", ".githooks", cwd=repo)
    install(repo)
    assert (repo / ".githooks" / "pre-commit").exists()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    # git itself runs it from there.
    write_skill(repo, "broken", body=BROKEN_SKILL)
    git("add", "broken", cwd=repo)
    done = commit(repo, "-m", "broken")
    assert done.returncode != 0
    assert "broken/SKILL.md" in done.stderr


# -- the pre-commit framework -------------------------------------------------------------


def test_manifest_declares_the_hook_for_pre_commit() -> None:
    hooks = {h["id"]: h for h in load_manifest(str(PROJECT / ".pre-commit-hooks.yaml"))}
    hook = hooks[HOOK_ID]
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is True
    # A commit that only deletes passes no file names; it can still break another skill's link.
    assert hook["always_run"] is True
    assert "--staged" in hook["entry"].split()
    # The entry's command is a console script the package really declares.
    scripts = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]["scripts"]
    assert hook["entry"].split()[0] in scripts


def _tracked_and_new_files(root: Path) -> list[str]:
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=root).stdout
    return [p for p in listed.split("\0") if p and (root / p).is_file()]


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This project's work tree as pre-commit sees a hook repository: (path, commit).

    pre-commit only installs what is committed, and try-repo's own shadow copy of uncommitted
    changes leaves out new files; so the work tree, new files included, is committed into a
    throwaway clone-able repository, and the tests check the code as it stands.
    """
    if not (PROJECT / ".git").exists():
        pytest.skip("the pre-commit tests need this project's git checkout (not an sdist)")
    snapshot = tmp_path_factory.mktemp("hook-repo")
    for rel in _tracked_and_new_files(PROJECT):
        (snapshot / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(PROJECT / rel, snapshot / rel)
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    git("init", "-q", cwd=snapshot)
    git("add", "-A", cwd=snapshot)
    git(*identity, "commit", "-q", "--no-verify", "-m", "snapshot", cwd=snapshot)
    return snapshot, head(snapshot)


@pytest.fixture(scope="session")
def pre_commit_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One PRE_COMMIT_HOME (and pip cache) for the session: the hook env is built once."""
    return tmp_path_factory.mktemp("pre-commit-home")


PreCommitRun = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def pre_commit_config(hook_repo: tuple[Path, str], tmp_path: Path) -> Path:
    """A pre-commit config (outside the repository under test) with our hook at `hook_repo`."""
    path, rev = hook_repo
    config = tmp_path / "pre-commit-config.yaml"
    config.write_text(
        f"repos:\n  - repo: {path}\n    rev: {rev}\n    hooks:\n      - id: {HOOK_ID}\n"
    )
    return config


@pytest.fixture
def pre_commit_env(pre_commit_cache: Path) -> dict[str, str]:
    """The environment pre-commit runs in: the session's hook environments, no colour."""
    env = git_env()
    env["PRE_COMMIT_HOME"] = str(pre_commit_cache)
    env["PIP_CACHE_DIR"] = str(pre_commit_cache / "pip")
    env["PRE_COMMIT_COLOR"] = "never"
    return env


@pytest.fixture
def run_pre_commit(pre_commit_config: Path, pre_commit_env: dict[str, str]) -> PreCommitRun:
    """Run gitcurator-validate through `pre-commit run` on a repository; returns the process."""
    config, env = pre_commit_config, pre_commit_env

    def run(repo: Path, *files: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "pre_commit", "run", HOOK_ID, "-c", str(config)]
        done = subprocess.run(
            [*cmd, "--files", *files],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        _skip_if_offline(done)
        return done

    return run


def _skip_if_offline(done: subprocess.CompletedProcess[str]) -> None:
    """Building the hook's environment pip-installs from an index; without one, skip."""
    log = done.stdout + done.stderr
    offline = (
        "(from versions: none)",  # the index answered nothing, or could not be reached
        "Temporary failure in name resolution",
        "NewConnectionError",
        "Network is unreachable",
    )
    if "An unexpected error has occurred" in log and any(s in log for s in offline):
        pytest.skip("pre-commit could not install the hook's environment (offline?)")


@pytest.mark.slow
def test_pre_commit_framework_refuses_a_staged_broken_skill(
    repo: Path, run_pre_commit: PreCommitRun
) -> None:
    write_skill(repo, "data/csv-clean", body=BROKEN_SKILL.replace("broken", "csv-clean"))
    git("add", "-A", cwd=repo)
    write_skill(repo, "data/csv-clean")  # fixed in the work tree only: the index still fails
    done = run_pre_commit(repo, "data/csv-clean/SKILL.md")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "data/csv-clean/SKILL.md" in done.stdout
    assert "Failed" in done.stdout


@pytest.mark.slow
def test_pre_commit_framework_passes_a_staged_good_skill(
    repo: Path, run_pre_commit: PreCommitRun
) -> None:
    write_skill(repo, "data/csv-clean")
    git("add", "-A", cwd=repo)
    write_skill(repo, "data/csv-clean", body=BROKEN_SKILL)  # broken in the work tree only
    done = run_pre_commit(repo, "data/csv-clean/SKILL.md", "pdf-extract/SKILL.md")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


@pytest.mark.slow
def test_pre_commit_try_repo_runs_the_hook(repo: Path, hook_repo: tuple[Path, str]) -> None:
    """`pre-commit try-repo` (how people try a hook before adding it) finds and runs ours."""
    path, rev = hook_repo
    write_skill(repo, "data/csv-clean", body=BROKEN_SKILL.replace("broken", "csv-clean"))
    git("add", "-A", cwd=repo)
    env = git_env()
    env["PRE_COMMIT_COLOR"] = "never"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(path),
            HOOK_ID,
            "--ref",
            rev,
            "--files",
            "data/csv-clean/SKILL.md",
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    _skip_if_offline(done)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "data/csv-clean/SKILL.md" in done.stdout


@pytest.mark.slow
def test_git_commit_through_pre_commits_hook_checks_the_change(
    repo: Path, pre_commit_config: Path, pre_commit_env: dict[str, str]
) -> None:
    """`pre-commit install`, then real `git commit`s: pre-commit's own hook script runs ours."""
    _old_bad_skill(repo)
    _linked_guide(repo)
    installed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install", "-c", str(pre_commit_config)],
        cwd=repo,
        env=pre_commit_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    write_skill(repo, "data/csv-clean")
    git("add", "-A", cwd=repo)
    done = commit(repo, "-m", "add csv-clean", env=pre_commit_env)
    _skip_if_offline(done)
    assert done.returncode == 0, done.stdout + done.stderr
    before = head(repo)
    write_skill(repo, "data/tsv-clean", body=BROKEN_SKILL.replace("broken", "tsv-clean"))
    git("add", "-A", cwd=repo)
    done = commit(repo, "-m", "add tsv-clean", env=pre_commit_env)
    # git shows the hook's output on stderr.
    assert done.returncode != 0 and "data/tsv-clean/SKILL.md" in done.stderr, done.stderr
    git("rm", "-q", "-r", "--cached", "data/tsv-clean", cwd=repo)
    # Only a deletion: pre-commit passes no file names, and the hook still runs (always_run).
    git("rm", "-q", "devops/docker-build/references/guide.md", cwd=repo)
    done = commit(repo, "-m", "drop the guide", env=pre_commit_env)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "pdf-extract/SKILL.md" in done.stderr and "[broken-link]" in done.stderr
    assert "broken/SKILL.md" not in done.stderr.replace("pdf-extract/SKILL.md", "")
    assert head(repo) == before

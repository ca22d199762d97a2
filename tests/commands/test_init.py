"""`gitcurator init`: create or adopt a repository, validate, commit; real git agrees."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.children import fails_in_a_child
from support.repos import git, run_cli, write_skill

from gitcurator import forked
from gitcurator.store import Store


def _commits(path: Path) -> list[str]:
    return git("log", "--format=%s", cwd=path).stdout.splitlines()


def test_init_creates_repository_and_commits_skills(library: Path) -> None:
    result = run_cli("init", str(library))
    assert result.code == 0, result
    assert "committed 3 skills" in result.out
    assert git("symbolic-ref", "HEAD", cwd=library).stdout.strip() == "refs/heads/main"
    assert _commits(library) == ["gitcurator: start curating 3 skills"]
    files = git("ls-files", cwd=library).stdout.split()
    assert files == [
        ".gitcurator.yaml",
        "devops/docker-build/SKILL.md",
        "devops/k8s/helm-deploy/SKILL.md",
        "pdf-extract/SKILL.md",
    ]
    assert git("status", "--porcelain", cwd=library).stdout == ""
    assert git("fsck", "--strict", cwd=library).returncode == 0
    body = git("log", "-1", "--format=%b", cwd=library).stdout
    assert "3 skills in 2 categories" in body


def test_init_keeps_modes_symlinks_and_honours_gitignore(library: Path) -> None:
    script = library / "pdf-extract" / "scripts" / "run.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho ok\n")
    script.chmod(0o755)
    os.symlink("../pdf-extract/SKILL.md", library / "devops" / "link.md")
    (library / ".gitignore").write_text("*.log\nbuild/\n")
    (library / "pdf-extract" / "debug.log").write_text("noise")
    (library / "build").mkdir()
    (library / "build" / "out.txt").write_text("x")
    assert run_cli("init", str(library), "-q").code == 0
    listed = git("ls-files", "-s", cwd=library).stdout
    assert "100755" in next(line for line in listed.splitlines() if "run.sh" in line)
    assert "120000" in next(line for line in listed.splitlines() if "link.md" in line)
    assert "debug.log" not in listed and "build/out.txt" not in listed
    assert git("status", "--porcelain", cwd=library).stdout == ""


def test_init_twice_is_harmless(repo: Path) -> None:
    before = git("rev-parse", "HEAD", cwd=repo).stdout
    config = (repo / ".gitcurator.yaml").read_text()
    result = run_cli("init", str(repo))
    assert result.code == 0
    assert "already a skills repository" in result.out
    assert git("rev-parse", "HEAD", cwd=repo).stdout == before
    assert (repo / ".gitcurator.yaml").read_text() == config


def test_init_adopts_existing_repository_and_keeps_its_history(library: Path) -> None:
    git("init", "-q", "-b", "trunk", cwd=library)
    git("add", "-A", cwd=library)
    git("commit", "-qm", "my skills", cwd=library)
    (library / "pdf-extract" / "SKILL.md").write_text("uncommitted edit")
    result = run_cli("init", str(library))
    assert result.code == 0, result
    assert _commits(library) == ["gitcurator: add default configuration", "my skills"]
    assert git("symbolic-ref", "HEAD", cwd=library).stdout.strip() == "refs/heads/trunk"
    # The person's uncommitted work is left alone, not swept into our commit.
    assert git("status", "--porcelain", cwd=library).stdout == " M pdf-extract/SKILL.md\n"


def test_init_keeps_an_existing_config(library: Path) -> None:
    (library / ".gitcurator.yaml").write_text("curator:\n  stale_after_days: 10\n")
    assert run_cli("init", str(library), "-q").code == 0
    assert (library / ".gitcurator.yaml").read_text() == "curator:\n  stale_after_days: 10\n"
    assert ".gitcurator.yaml" in git("ls-files", cwd=library).stdout


def test_init_empty_folder_commits_the_config(tmp_path: Path) -> None:
    target = tmp_path / "new" / "skills"
    result = run_cli("init", str(target))
    assert result.code == 0, result
    assert "committed 0 skills" in result.out
    assert git("ls-files", cwd=target).stdout.split() == [".gitcurator.yaml"]


def test_init_honours_skills_dir(tmp_path: Path) -> None:
    write_skill(tmp_path, "skills/a")
    write_skill(tmp_path, "docs/not-a-skill")
    (tmp_path / ".gitcurator.yaml").write_text("skills_dir: skills\n")
    result = run_cli("init", str(tmp_path))
    assert "committed 1 skill;" in result.out


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (
            lambda r: (r / "bad" / "SKILL.md").write_bytes(b""),
            "bad/SKILL.md:1: error: SKILL.md is empty",
        ),
        (
            lambda r: (r / "bad" / "SKILL.md").write_bytes(b"\x00\x01\x02"),
            "bad/SKILL.md: error: SKILL.md is a binary",
        ),
        (
            lambda r: (r / "bad" / "SKILL.md").write_bytes(
                b"---\nname: bad\n\tdescription: x\n---\n"
            ),
            "bad/SKILL.md:3: error: SKILL.md frontmatter is not valid YAML",
        ),
        (
            lambda r: (r / "bad" / "SKILL.md").write_bytes(b"---\nname: bad\ndescription: x\n"),
            "bad/SKILL.md:1: error: SKILL.md frontmatter is not closed",
        ),
        (
            lambda r: (r / "bad" / "SKILL.md").write_bytes(b"---\n- a\n---\n"),
            "bad/SKILL.md:2: error: SKILL.md frontmatter must be a YAML mapping",
        ),
        (
            lambda r: (r / "bad" / "SKILL.md").write_bytes(b"---\nname: b\xe9d\n---\n"),
            "bad/SKILL.md:2: error: SKILL.md is not UTF-8 text",
        ),
        (
            lambda r: (r / "bad" / "SKILL.md").write_bytes(
                b"---\nname: bad\ndescription: x\n---\n" + b"a" * 51_000_000
            ),
            "bad/SKILL.md: error: SKILL.md is 48.6 MB",
        ),
    ],
)
def test_init_refuses_broken_skills_and_writes_nothing(library: Path, setup, message: str) -> None:  # type: ignore[no-untyped-def]
    (library / "bad").mkdir()
    setup(library)
    before = sorted(p.name for p in library.iterdir())
    result = run_cli("init", str(library))
    assert result.code == 1, result
    assert message in result.err, result.err
    assert "nothing was written" in result.err
    assert not (library / ".git").exists()
    assert sorted(p.name for p in library.iterdir()) == before


def test_init_refuses_bad_config_and_writes_nothing(library: Path) -> None:
    (library / ".gitcurator.yaml").write_text("curator:\n  bogus: 1\n")
    result = run_cli("init", str(library))
    assert result.code == 1
    assert "unknown key 'bogus' in curator" in result.err
    assert not (library / ".git").exists()


def test_init_no_verify_commits_anyway(library: Path) -> None:
    write_skill(library, "broken", body="no frontmatter at all\n")
    result = run_cli("init", str(library), "--no-verify")
    assert result.code == 0, result
    assert "broken/SKILL.md" in git("ls-files", cwd=library).stdout


def test_init_inside_another_repository_points_to_skills_dir(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    write_skill(tmp_path, "sub/a")
    result = run_cli("init", str(tmp_path / "sub"))
    assert result.code == 2
    assert "set `skills_dir: sub`" in result.err
    assert not (tmp_path / "sub" / ".git").exists()


@pytest.mark.parametrize(
    "target",
    [".git", ".git/refs", "bare.git", "bare.git/hooks", "bare.git/new-folder"],
)
def test_init_in_git_storage_is_a_usage_error_and_writes_nothing(
    repo: Path, tmp_path: Path, target: str
) -> None:
    git("clone", "-q", "--bare", str(repo), str(tmp_path / "bare.git"), cwd=tmp_path)
    where = (repo if target.startswith(".git") else tmp_path) / target
    before = sorted(str(p) for p in where.parent.rglob("*"))
    result = run_cli("init", str(where))
    assert result.code == 2, result
    assert "git directory" in result.err and "Traceback" not in result.err
    assert sorted(str(p) for p in where.parent.rglob("*")) == before, "nothing written"
    assert git("fsck", "--no-progress", cwd=repo).returncode == 0


def test_init_on_a_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    result = run_cli("init", str(tmp_path / "f"))
    assert result.code == 2
    assert "is a file" in result.err


def test_init_folder_names_with_spaces_and_dots(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    write_skill(lib, "with space", name="with-space")
    result = run_cli("init", str(lib))
    # A folder name the spec forbids is reported, not crashed on; every client loads the skill
    # by its frontmatter name, so it is a warning and the library is committed.
    assert result.code == 0, result
    assert "validation: 0 errors, 2 warnings" in result.out
    report = run_cli("validate", "-C", str(lib))
    assert "with space/SKILL.md:2: warning: Directory name 'with space'" in report.out


def test_an_empty_git_repository_is_adopted_and_validates(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    git("init", "-q", "-b", "main", cwd=lib)
    # Before anything is committed: validate finds nothing and says so, without failing.
    empty = run_cli("validate", "-C", str(lib))
    assert empty.code == 0 and "0 skills checked" in empty.out
    write_skill(lib, "first-skill")
    result = run_cli("init", str(lib))
    assert result.code == 0, result
    assert "initialised skills repository" in result.out
    assert _commits(lib) == ["gitcurator: start curating 1 skill"]


def test_adopting_a_repository_with_invalid_skills_warns_and_names_the_way_out(
    tmp_path: Path,
) -> None:
    root = tmp_path / "lib"
    write_skill(root, "ok-skill")
    write_skill(root, "bad-skill", body="---\nname: bad-skill\ndescription: Use when: x\n---\n")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "skills", cwd=root)
    result = run_cli("init", str(root))
    assert result.code == 0, result  # history already holds them: nothing to refuse
    assert "1 validation error in the adopted skills" in result.err
    assert "gitcurator validate" in result.err
    assert git("log", "--format=%s", cwd=root).stdout.splitlines()[0].startswith("gitcurator:")


@pytest.mark.parametrize(
    ("args", "made"),
    [
        (("init", "-C", "{root}/lib"), "lib"),  # README: every command takes -C
        (("-C", "{root}/lib", "init"), "lib"),
        (("init", "-C", "{root}", "lib"), "lib"),  # like `git -C DIR init PATH`
        (("-C", "{root}/elsewhere", "init", "{root}/lib"), "lib"),  # an absolute PATH wins
    ],
)
def test_init_minus_c_is_the_folder_and_a_relative_path_lies_inside_it(
    tmp_path: Path, args: tuple[str, ...], made: str
) -> None:
    write_skill(tmp_path / "lib", "pdf-extract")
    result = run_cli(*(a.format(root=tmp_path) for a in args))
    assert result.code == 0, result
    assert f"created skills repository {tmp_path / made} " in result.out
    assert "committed 1 skill" in result.out
    assert git("ls-files", cwd=tmp_path / made).stdout.split() == [
        ".gitcurator.yaml",
        "pdf-extract/SKILL.md",
    ]
    assert not (tmp_path / ".git").exists() and not (tmp_path / "elsewhere").exists()


def _many_skills(lib: Path, count: int) -> None:
    for i in range(count):
        write_skill(lib, f"skill-{i:03d}")


def test_a_refused_init_of_an_empty_repository_leaves_no_pack_behind(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    git("init", "-q", "-b", "main", cwd=lib)
    _many_skills(lib, 60)  # enough objects for a pack (store/pack_writer.LOOSE_BELOW)
    write_skill(lib, "broken", body="---\nname: broken\n---\n# no description\n")
    result = run_cli("init", str(lib))
    assert result.code == 1 and "nothing was written" in result.err
    pack_dir = lib / ".git" / "objects" / "pack"
    assert not (list(pack_dir.iterdir()) if pack_dir.exists() else [])
    assert not (lib / ".gitcurator.yaml").exists()
    assert git("rev-parse", "-q", "--verify", "HEAD", cwd=lib, check=False).returncode != 0


def test_an_init_interrupted_during_its_checks_leaves_no_pack_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitcurator.commands import init as init_command

    def interrupted(*args: object) -> dict[str, str]:
        raise KeyboardInterrupt

    monkeypatch.setattr(init_command, "precheck", interrupted)
    lib = tmp_path / "lib"
    lib.mkdir()
    git("init", "-q", "-b", "main", cwd=lib)
    _many_skills(lib, 60)
    assert run_cli("init", str(lib)).code == 130
    pack_dir = lib / ".git" / "objects" / "pack"
    assert not (list(pack_dir.iterdir()) if pack_dir.exists() else [])
    assert not (lib / ".gitcurator.yaml").exists()


@pytest.mark.parametrize("walker_fails", [False, True])
def test_the_nested_repositories_found_beside_the_names_are_the_ones_found_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, walker_fails: bool
) -> None:
    from gitcurator.commands import init as init_command

    said = []
    for beside in (False, True):
        lib = tmp_path / f"lib-{beside}"
        write_skill(lib, "plain")
        for nested in ("cloned", "deep/er"):
            (lib / nested).mkdir(parents=True)
            git("init", "-q", cwd=lib / nested)
        if beside:
            monkeypatch.setattr(init_command, "_NESTED_BESIDE_ABOVE", 0)
            monkeypatch.setattr(forked.os, "cpu_count", lambda: 2)
            if walker_fails:  # the walker's answer is lost: init walks again itself
                walk = fails_in_a_child(os.getpid(), Store.nested_repositories)
                monkeypatch.setattr(Store, "nested_repositories", walk)
        made = run_cli("init", str(lib))
        assert made.code == 0, made.err
        said.append((made.out.replace(str(lib), "@"), made.err.replace(str(lib), "@")))
    assert said[0] == said[1]
    assert "not committed: 2 nested repositories" in said[1][0]

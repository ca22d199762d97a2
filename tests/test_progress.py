"""The progress protocol: long loops report a few hundred times at most, and nothing at all
costs more than a call when nobody watches."""

from __future__ import annotations

import pytest
from support.file_trees import file_tree, skill_md

from gitcurator.progress import NO_PROGRESS, GitProgress, counted, step
from gitcurator.skills.check_tree import check_tree

Call = tuple[str, int, int]


class Recorder:
    def __init__(self) -> None:
        self.calls: list[Call] = []

    def __call__(self, label: str, done: int, total: int) -> None:
        self.calls.append((label, done, total))


@pytest.mark.parametrize("n", [0, 1, 7, 200, 201, 10_000])
def test_counted_yields_every_item_and_reports_start_end_and_a_bounded_number_between(
    n: int,
) -> None:
    heard = Recorder()
    assert list(counted(range(n), "reading", heard, updates=100)) == list(range(n))
    assert heard.calls[0] == ("reading", 0, n)
    assert heard.calls[-1] == ("reading", n, n)
    assert len(heard.calls) <= 102
    done = [d for _, d, _ in heard.calls]
    assert done == sorted(done)


def test_counted_reports_each_item_after_it_was_handled() -> None:
    heard = Recorder()
    seen = []
    for item in counted(["a", "b"], "x", heard, updates=10):
        seen.append((item, heard.calls[-1][1]))
    assert seen == [("a", 0), ("b", 1)]


def test_nobody_watching_hears_nothing_and_gets_every_item() -> None:
    assert list(counted([1, 2, 3], "x", NO_PROGRESS)) == [1, 2, 3]
    NO_PROGRESS("label", 1, 2)  # callable, and silent


def test_a_step_is_shown_begun_and_done() -> None:
    heard = Recorder()
    with step("writing the commit", heard):
        assert heard.calls == [("writing the commit", 0, 1)]
    assert heard.calls[-1] == ("writing the commit", 1, 1)


def test_checking_a_tree_reports_its_skills() -> None:
    heard = Recorder()
    tree = file_tree({f"s{i}/SKILL.md": skill_md(f"s{i}", "Steps.") for i in range(5)})
    result = check_tree(tree, progress=heard)
    assert len(result.checked) == 5
    assert heard.calls[0] == ("validating skills", 0, 5)
    assert heard.calls[-1] == ("validating skills", 5, 5)


def test_git_progress_lines_become_counts_whatever_the_chunks() -> None:
    heard = Recorder()
    feed = GitProgress(heard)
    stream = (
        b"Enumerating objects: 5, done.\n"
        b"Counting objects:  40% (2/5)\rCounting objects: 100% (5/5), done.\n"
        b"remote: Compressing objects:  50% (1/2)\r"
        b"copying pack entries: 3/10\r"
        b"Total 5 (delta 0), reused 0 (delta 0)\n"
        b"Receiving objects:  10% (1/1"
    )
    for i in range(0, len(stream), 7):  # chunks split lines anywhere
        feed(stream[i : i + 7])
    assert heard.calls == [
        ("counting objects", 2, 5),
        ("counting objects", 5, 5),
        ("compressing objects", 1, 2),
        ("copying pack entries", 3, 10),
    ]  # the unfinished last line waits for its end

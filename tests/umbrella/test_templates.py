"""Template lines: what most of a library repeats, with only each skill's name changed."""

from __future__ import annotations

from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.templates import line_key, name_words, own_texts, template_df
from gitcurator.umbrella.wording import tfidf_vectors


def app(name: str, extra: str = "") -> Candidate:
    """A generated skill: the template with its name in, and maybe a line of its own."""
    title = name.replace("-", " ").title()
    return Candidate(
        name,
        name,
        f"Automate {title} tasks via Rube MCP (Composio). Always search tools first.",
        f"# {title} Automation\n\nNo API keys needed.\nCall RUBE_SEARCH_TOOLS for {title}.\n"
        + extra,
    )


NAMES = "zerobounce kickbox api-bible api-ninjas mx-toolbox tomba placid nango ynab adrapid"
# More apps than one cluster holds (templates.MIN_TEMPLATE_DF): a template, not a family.
APPS = [app(n) for n in NAMES.split()] + [app(f"bugsnag-{k}") for k in range(4)]


def test_template_lines_are_left_out_and_own_lines_kept() -> None:
    own = app("ticktick", "Sort tasks into projects by due date.")
    texts = own_texts([*APPS, own])
    assert all(text == ("", "") for text in texts[:-1])
    assert texts[-1] == ("", "Sort tasks into projects by due date.")


def test_a_common_word_of_a_name_is_not_masked_alone() -> None:
    # `api` of api-bible is also the `api` of "No API keys needed" in every other skill.
    common = frozenset({"api", "no", "keys", "needed"})
    words = ["no", "api", "keys", "needed"]
    assert line_key(words, name_words("api-bible"), common) == "no api keys needed"
    assert line_key(["automate", "api", "bible", "tasks"], name_words("api-bible"), common) == (
        "automate \x00 tasks"
    )
    assert name_words("mx-toolbox") == {"mx", "toolbox", "mxtoolbox"}


def test_lines_a_few_siblings_share_are_not_template() -> None:
    line = "Detect the table areas on every page with camelot."
    pair = [Candidate(f"pdf-{k}", "x", "", line) for k in ("tables", "forms")]
    assert template_df(2) == 13 and template_df(1000) == 20
    assert own_texts(pair) == [("", line), ("", line)]
    family = [app(f"pdf-{k}") for k in ("tables", "images", "forms", "fonts")]
    assert all(text != ("", "") for text in own_texts(family))  # a family is no template


def test_text_shared_by_most_of_a_library_weighs_little_against_its_own_words() -> None:
    # Without the template step, the template's words dominate every generated skill.
    texts = [" ".join(parts) for parts in own_texts([*APPS, app("ticktick", "Sort projects.")])]
    vectors = tfidf_vectors(texts)
    assert all(not v for v in vectors[:-1])
    assert set(vectors[-1]) == {"sort", "project"}

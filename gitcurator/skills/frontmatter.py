"""Frontmatter rules: the Agent Skills spec as skills-ref 0.1.1 checks it, and what clients load.

Strict messages copy skills-ref's wording so users can search either tool's output. skills-ref
reads YAML with strictyaml, where every scalar is a string (`name: 123` is "123", `name:` is
""); strict mode sees non-string scalars the same way, through their YAML source text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

MAX_NAME_LENGTH = 64
MAX_DESCRIPTION_LENGTH = 1024
MAX_COMPATIBILITY_LENGTH = 500
SPEC_FIELDS = frozenset(
    {"name", "description", "license", "allowed-tools", "metadata", "compatibility"}
)
# Frontmatter fields real clients read (or their bundled skills carry), accepted silently.
CLIENT_FIELDS: Mapping[str, frozenset[str]] = {
    "Hermes Agent": frozenset(
        {"version", "author", "authors", "platforms", "prerequisites", "tags", "related_skills"}
        | {"category", "setup", "environments", "required_environment_variables"}
        | {"required_credential_files", "dependencies", "triggers", "requires", "title"}
        | {"toolsets"}
    ),
    "Claude Code": frozenset(
        {"disable-model-invocation", "user-invocable", "argument-hint", "model", "context"}
        | {"agent", "hooks", "when_to_use", "paths", "version"}
    ),
    "OpenClaw": frozenset(
        {"homepage", "user-invocable", "disable-model-invocation", "command-dispatch"}
        | {"command-tool", "command-arg-mode"}
    ),
}
KNOWN_FIELDS = SPEC_FIELDS.union(*CLIENT_FIELDS.values())
# Namespaces under `metadata` where clients keep structured (non-string) values.
METADATA_NAMESPACES = frozenset({"hermes", "openclaw", "clawdbot", "clawdis"})
# Which clients refuse a description, by the first word of the spec's message.
_DESCRIPTION_CLIENTS = {
    "Description": (
        " (Codex does not load the skill and claude.ai upload refuses it; Hermes cuts it); "
        "shorten it and move detail into the body"
    ),
    "Field": " (Codex does not load the skill, claude.ai upload refuses it)",
}
# Hermes' own name rule ([a-z0-9][a-z0-9._-]*) also allows these; the spec does not.
_HERMES_NAME_EXTRAS = frozenset("._")


ScalarText = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Problem:
    """A frontmatter finding before it is tied to a file; `field` locates its line."""

    level: str
    rule: str
    message: str
    field: str | None = None


def check_frontmatter(
    frontmatter: Mapping[str, Any], dirname: str, *, strict: bool, scalar_text: ScalarText
) -> list[Problem]:
    """The frontmatter problems of a skill in folder `dirname`; scalar_text(key) is the
    YAML source of a top-level scalar (needed only in strict mode)."""
    if strict:
        return list(_strict(frontmatter, dirname, scalar_text))
    return list(_lenient(frontmatter, dirname))


def name_messages(name: str, dirname: str | None = None) -> list[str]:
    """skills-ref's checks of a string name, in its order and words (the folder match only
    when `dirname` is given)."""
    if not name.strip():
        return ["Field 'name' must be a non-empty string"]
    name = unicodedata.normalize("NFKC", name.strip())
    messages = []
    if len(name) > MAX_NAME_LENGTH:
        messages.append(
            f"Skill name '{name}' exceeds {MAX_NAME_LENGTH} character limit ({len(name)} chars)"
        )
    if name != name.lower():
        messages.append(f"Skill name '{name}' must be lowercase")
    if name.startswith("-") or name.endswith("-"):
        messages.append("Skill name cannot start or end with a hyphen")
    if "--" in name:
        messages.append("Skill name cannot contain consecutive hyphens")
    if not all(c.isalnum() or c == "-" for c in name):
        messages.append(
            f"Skill name '{name}' contains invalid characters. "
            "Only letters, digits, and hyphens are allowed."
        )
    if dirname is not None and unicodedata.normalize("NFKC", dirname) != name:
        messages.append(f"Directory name '{dirname}' must match skill name '{name}'")
    return messages


def _strict(fm: Mapping[str, Any], dirname: str, scalar_text: ScalarText) -> Iterator[Problem]:
    extra = set(fm) - SPEC_FIELDS
    if extra:
        yield Problem(
            "error",
            "fields",
            f"Unexpected fields in frontmatter: {', '.join(sorted(extra))}. "
            f"Only {sorted(SPEC_FIELDS)} are allowed.",
            next(k for k in fm if k in extra),  # the line of the first one
        )
    if "name" not in fm:
        yield Problem("error", "name", "Missing required field in frontmatter: name")
    else:
        name = _as_strictyaml(fm, "name", scalar_text)
        if not isinstance(name, str) or not name:
            yield Problem("error", "name", "Field 'name' must be a non-empty string", "name")
        else:
            for message in name_messages(name, dirname):
                yield Problem("error", "name", message, "name")
    if "description" not in fm:
        yield Problem("error", "description", "Missing required field in frontmatter: description")
    else:
        description = _as_strictyaml(fm, "description", scalar_text)
        yield from _description(description, "error")
    if "compatibility" in fm:
        yield from _compatibility(_as_strictyaml(fm, "compatibility", scalar_text), "error")
    # skills-ref does not check these optional fields' types at all (it str()s metadata
    # values); the spec does, and strict mode is the spec.
    if fm.get("metadata") is not None:
        yield from _metadata(fm["metadata"], "error", strict=True)
    for key, expected in (("license", "a string"), ("allowed-tools", "a space-delimited string")):
        if isinstance(fm.get(key), (list, dict)):
            yield Problem("error", "fields", f"Field '{key}' must be {expected}", key)


def _lenient(fm: Mapping[str, Any], dirname: str) -> Iterator[Problem]:
    unknown = set(fm) - KNOWN_FIELDS
    if unknown:
        yield Problem(
            "warning",
            "fields",
            f"Unknown frontmatter fields: {', '.join(sorted(unknown))} (neither Agent Skills "
            "spec nor a known client extension: Claude Code, Codex and Hermes ignore them, "
            "claude.ai upload and --strict refuse them)",
            next(k for k in fm if k in unknown),
        )
    yield from _lenient_name(fm, dirname)
    if "description" not in fm:
        message = (
            "Missing required field in frontmatter: description (Codex does not load a skill "
            "without one, claude.ai upload refuses it)"
        )
        yield Problem("error", "description", message)
    else:
        for problem in _description(fm["description"], "error"):
            why = _DESCRIPTION_CLIENTS.get(problem.message.split(" ", 1)[0], "")
            yield Problem(problem.level, problem.rule, problem.message + why, problem.field)
    if "compatibility" in fm:
        yield from _compatibility(fm["compatibility"], "warning")
    if fm.get("metadata") is not None:
        yield from _metadata(fm["metadata"], "warning", strict=False)
    tools = fm.get("allowed-tools")
    if tools is not None and not (
        isinstance(tools, str)
        or (isinstance(tools, list) and all(isinstance(t, str) for t in tools))
    ):
        message = "Field 'allowed-tools' must be a string or a list of tool names"
        yield Problem("warning", "fields", message, "allowed-tools")
    if isinstance(fm.get("license"), (list, dict)):
        yield Problem("warning", "fields", "Field 'license' must be a string", "license")


def _lenient_name(fm: Mapping[str, Any], dirname: str) -> Iterator[Problem]:
    if "name" not in fm:
        yield Problem(
            "error",
            "name",
            f"Missing required field in frontmatter: name (Codex does not load a skill "
            f"without one; Claude Code and Hermes fall back to the folder name): add "
            f"`name: {dirname}`",
        )
        yield from _folder_rules(dirname)
        return
    name = fm["name"]
    # A non-string name breaks clients outright (Hermes slices it, Codex wants a string).
    if not isinstance(name, str) or not name.strip():
        message = "Field 'name' must be a non-empty string (Codex and Hermes skip the skill)"
        yield Problem("error", "name", message, "name")
        return
    normalized = unicodedata.normalize("NFKC", name.strip())
    for message in name_messages(name):
        level, refused_by = _lenient_name_rule(message, normalized)
        yield Problem(level, "name", f"{message} ({refused_by})", "name")
    if unicodedata.normalize("NFKC", dirname) != normalized:
        message = f"Directory name '{dirname}' must match skill name '{normalized}'"
        hint = " (clients load it under its name; --strict rejects it)"
        yield Problem("warning", "name", message + hint, "name")
        yield from _folder_rules(dirname)


def _folder_rules(dirname: str) -> Iterator[Problem]:
    """A folder name outside the spec's rule: no client refuses a folder for its name (the
    frontmatter name is what they check), so these are warnings."""
    for message in name_messages(dirname):
        message = "Directory name" + message.removeprefix("Skill name")
        hint = " (the spec wants folder and name alike; rename the folder)"
        yield Problem("warning", "name", message + hint, "name")


def _lenient_name_rule(message: str, name: str) -> tuple[str, str]:
    """(level, which clients refuse or accept it) for one of name_messages()'s findings."""
    if "character limit" in message:
        return "error", "Codex does not load it and claude.ai upload refuses it; Hermes cuts it"
    if "consecutive hyphens" in message or "start or end with a hyphen" in message:
        return "warning", "the spec forbids it; Claude Code, Codex, Hermes and claude.ai take it"
    if "invalid characters" in message and _hermes_name_ok(name):
        # Hermes' own name rule allows them, so an error would refuse every Hermes library.
        return "warning", "claude.ai upload refuses it; Claude Code, Codex and Hermes load it"
    return "error", "claude.ai upload refuses it: lowercase letters, digits and hyphens only"


def _hermes_name_ok(name: str) -> bool:
    return all(c.isalnum() or c == "-" or c in _HERMES_NAME_EXTRAS for c in name)


def _description(value: Any, too_long: str) -> Iterator[Problem]:
    if not isinstance(value, str) or not value.strip():
        yield Problem(
            "error", "description", "Field 'description' must be a non-empty string", "description"
        )
    elif len(value) > MAX_DESCRIPTION_LENGTH:
        yield Problem(
            too_long,
            "description",
            f"Description exceeds {MAX_DESCRIPTION_LENGTH} character limit ({len(value)} chars)",
            "description",
        )


def _compatibility(value: Any, level: str) -> Iterator[Problem]:
    if not isinstance(value, str):
        yield Problem(
            level, "compatibility", "Field 'compatibility' must be a string", "compatibility"
        )
    elif len(value) > MAX_COMPATIBILITY_LENGTH:
        yield Problem(
            level,
            "compatibility",
            f"Compatibility exceeds {MAX_COMPATIBILITY_LENGTH} character limit "
            f"({len(value)} chars)",
            "compatibility",
        )


def _metadata(value: Any, level: str, *, strict: bool) -> Iterator[Problem]:
    if not isinstance(value, dict):
        message = "Field 'metadata' must be a mapping of string keys to string values"
        # Codex reads metadata into a struct (for metadata.short-description): a list or a
        # string there fails the whole frontmatter, so the skill is not loaded.
        hint = "" if strict else " (Codex does not load the skill)"
        yield Problem("error", "metadata", message + hint, "metadata")
        return
    if not strict:
        yield from _short_description(value.get("short-description"))
    if strict:
        # strictyaml reads every scalar as a string, so only nesting departs from the spec.
        bad = [key for key, item in value.items() if isinstance(item, (list, dict))]
    else:
        bad = [
            key
            for key, item in value.items()
            if not isinstance(item, str)
            and not (key in METADATA_NAMESPACES and isinstance(item, dict))
        ]
    if bad:
        names = ", ".join(sorted(map(str, bad)))
        message = f"Field 'metadata' values must be strings, not in: {names}"
        hint = "" if strict else _metadata_advice(value, bad)
        yield Problem(level, "metadata", message + hint, "metadata")


def _metadata_advice(value: Mapping[Any, Any], bad: list[Any]) -> str:
    """What makes each kind of non-string value a string (clients tolerate them all)."""
    kinds = {type(value[key]) for key in bad}
    advice = []
    lists = [k for k in bad if isinstance(value[k], list)]
    flat = [k for k in lists if all(not isinstance(i, (list, dict)) for i in value[k])]
    if flat:
        joined = ", ".join(str(item) for item in value[flat[0]][:3])
        advice.append(f'write a list as one string (`{flat[0]}: "{joined[:60]}"`)')
    if kinds & {dict} or len(flat) < len(lists):
        advice.append("move structured data out of metadata, to a top-level field")
    if kinds - {list, dict}:
        key = next(k for k in bad if not isinstance(value[k], (list, dict)))
        advice.append(f'quote a number, date or boolean (`{key}: "{value[key]}"`)')
    return " (" + "; ".join(advice) + ")"


def _short_description(value: Any) -> Iterator[Problem]:
    """Codex's one metadata field: a non-string or over-long one drops the skill there."""
    if value is None:
        return
    if not isinstance(value, str):
        message = "Field 'metadata.short-description' must be a string (Codex does not load it)"
        yield Problem("error", "metadata", message, "metadata")
    elif len(" ".join(value.split())) > MAX_DESCRIPTION_LENGTH:
        message = (
            f"Field 'metadata.short-description' exceeds {MAX_DESCRIPTION_LENGTH} characters "
            "(Codex does not load the skill)"
        )
        yield Problem("error", "metadata", message, "metadata")


def _as_strictyaml(fm: Mapping[str, Any], key: str, scalar_text: ScalarText) -> Any:
    value = fm[key]
    if isinstance(value, (list, dict, str)):
        return value
    return scalar_text(key)

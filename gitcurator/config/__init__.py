"""`.gitcurator.yaml`: defaults, loading and validation into a frozen Config."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gitcurator import schemas
from gitcurator.config.plain import plain_config
from gitcurator.errors import ConfigError
from gitcurator.references.globs import DEFAULT_REFERENCE_FILES, glob_problem

if TYPE_CHECKING:
    import yaml

CONFIG_FILE = ".gitcurator.yaml"

DEFAULT_CONFIG_TEXT = """\
# gitcurator configuration: https://github.com/gitcurator/gitcurator#configuration
# skills_dir: skills      # where the skills live, if not at the repository root
curator:
  enabled: true
  interval_hours: 168      # a week between automatic passes
  min_idle_hours: 2
  stale_after_days: 30
  archive_after_days: 90
  consolidate: false       # the LLM pass is opt-in
  min_age_days: 7          # the LLM never merges skills younger than this
  min_retention: 0.5       # share of an absorbed skill's content its umbrella must keep
  prune_builtins: false
  protect: []              # names or globs the curator must never touch
llm:
  base_url: null           # any OpenAI-compatible endpoint; null = the openai default
  model: null
  api_key_env: OPENAI_API_KEY
  max_requests: 50
"""


@dataclass(frozen=True, slots=True)
class CuratorPolicy:
    enabled: bool = True
    interval_hours: float = 168
    min_idle_hours: float = 2
    stale_after_days: float = 30
    archive_after_days: float = 90
    consolidate: bool = False
    min_age_days: float = 7
    min_retention: float = 0.5
    prune_builtins: bool = False
    protect: tuple[str, ...] = ()
    # An archived skill asked for this many times since it was archived is proposed back.
    restore_after_wanted: int = 2
    archive_referenced: bool = False  # archive idle skills that others still refer to


@dataclass(frozen=True, slots=True)
class LlmSettings:
    base_url: str | None = None
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    max_requests: int = 50
    timeout_seconds: float = 120
    retries: int = 3
    max_tokens: int | None = None  # None: a cap from each cluster's size
    budget_seconds: float = 600


@dataclass(frozen=True, slots=True)
class Config:
    skills_dir: str = ""
    include: tuple[str, ...] = ()  # globs of dot-folders (under skills_dir) holding skills
    curator: CuratorPolicy = field(default_factory=CuratorPolicy)
    llm: LlmSettings = field(default_factory=LlmSettings)
    # Files (globs from the repository's top) whose mentions of skills count as references.
    reference_files: tuple[str, ...] = DEFAULT_REFERENCE_FILES


def _folder_path(text: str) -> str:
    """A folder written in the config as git names it: `./.system/` is `.system`, `a//b` is
    `a/b` (git's paths have no `.` or empty parts, so `./x` would match nothing)."""
    return "/".join(part for part in text.split("/") if part not in ("", "."))


def parse_config(text: str, source: str = CONFIG_FILE) -> Config:
    """Parse and validate the text of a config file; errors name the key and the problem."""
    plain = plain_config(text)  # what `init` writes needs no PyYAML (a sixth of a quick start)
    doc = _yaml_doc(text, source) if plain is None else plain
    if doc is None:
        return Config()
    if not isinstance(doc, dict):
        raise ConfigError(f"{source}: must be a mapping of settings, not {type(doc).__name__}")
    doc = _numbers(doc, source)
    found = schemas.problems(doc, "config")
    if found:
        raise ConfigError(f"{source}: " + "; ".join(_friendly(p) for p in found))
    return _build(doc, source)


def _yaml_doc(text: str, source: str) -> object:
    import yaml  # here, not at the top: a plain config and a Config's users need none

    # skills.document imports PyYAML (its resolver) too: not for a plain config either.
    from gitcurator.skills.document import YAML_BUILD_ERRORS, yaml_build_problem

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {_yaml_problem(exc)}") from None
    except YAML_BUILD_ERRORS as exc:
        raise ConfigError(f"{source}: not valid YAML: {yaml_build_problem(exc)}") from None


def _build(doc: dict[str, Any], source: str) -> Config:
    cur = dict(doc.get("curator") or {})
    if "protect" in cur:
        cur["protect"] = tuple(cur["protect"])
    raw_dir = str(doc.get("skills_dir") or "")
    skills_dir = _folder_path(raw_dir)
    if raw_dir.startswith("/") or ".." in raw_dir.split("/"):
        raise ConfigError(
            f"{source}: skills_dir {skills_dir!r} must be a folder inside the repository"
        )
    globs = [str(glob) for glob in doc.get("include") or ()]
    if any(glob.startswith("/") or ".." in glob.split("/") for glob in globs):
        raise ConfigError(f"{source}: include globs must name folders inside the library")
    include = tuple(path for path in map(_folder_path, globs) if path)
    policy = CuratorPolicy(**cur)
    if policy.archive_after_days < policy.stale_after_days:
        raise ConfigError(
            f"{source}: curator.archive_after_days ({policy.archive_after_days:g}) must not "
            f"be smaller than curator.stale_after_days ({policy.stale_after_days:g})"
        )
    llm = LlmSettings(**(doc.get("llm") or {}))
    references = tuple(str(g) for g in doc.get("reference_files", DEFAULT_REFERENCE_FILES))
    for glob in references:
        problem = glob_problem(glob)
        if problem:
            raise ConfigError(
                f"{source}: reference_files glob {glob!r} {problem}; reference files must be "
                "inside the repository (a glob relative to its top, such as docs/AGENTS.md)"
            )
    return Config(
        skills_dir=skills_dir,
        include=include,
        curator=policy,
        llm=llm,
        reference_files=tuple(g.strip("/") for g in references),
    )


def _numbers(doc: dict[str, Any], source: str) -> dict[str, Any]:
    """Numeric settings as finite numbers: NaN and infinity refused by key, `1e3` accepted.

    jsonschema's bounds compare false against NaN, so `.nan` would pass every `minimum` and
    silently switch a guard off (`min_retention: .nan` keeps nothing and refuses nothing).
    YAML 1.1 reads `1e3` (no dot) as a string; it is plainly meant as a number.
    """
    numeric = _numeric_keys()
    fixed = dict(doc)
    for section, value in doc.items():
        if section not in numeric or not isinstance(value, dict):
            continue
        settings = dict(value)
        for key, raw in value.items():
            if key in numeric[section] and not isinstance(raw, bool):
                integer = numeric[section][key]
                settings[key] = _number(raw, f"{section}.{key}", integer, source)
        fixed[section] = settings
    return fixed


@functools.cache
def _numeric_keys() -> dict[str, dict[str, bool]]:
    """section -> numeric key -> whether it must be whole, read from the config schema."""
    found: dict[str, dict[str, bool]] = {}
    for section, spec in schemas.load("config")["properties"].items():
        for key, prop in spec.get("properties", {}).items():
            kinds = prop.get("type")
            kinds = set(kinds) if isinstance(kinds, list) else {kinds}
            if kinds & {"number", "integer"}:
                found.setdefault(section, {})[key] = "integer" in kinds
    return found


_FLOAT_BITS = 1023  # an int of more bits is beyond the largest float (~1.8e308)


def _number(raw: object, key: str, integer: bool, source: str) -> object:
    number = raw
    if isinstance(raw, str):
        try:
            number = float(raw.strip())
        except ValueError:
            return raw  # not numeric at all: the schema check names the key and the type
    if not isinstance(number, int | float):
        return raw
    if isinstance(number, int) and number.bit_length() > _FLOAT_BITS:
        # Past float's range: `:g`, hours * 3600 and the schema's bounds would overflow.
        raise ConfigError(f"{source}: {key} is a {len(str(number))}-digit number; too large")
    if isinstance(number, float) and (math.isnan(number) or math.isinf(number)):
        raise ConfigError(f"{source}: {key} is {raw!r}; it must be a finite number")
    if integer and isinstance(number, float):
        if not number.is_integer():
            raise ConfigError(f"{source}: {key} is {raw!r}; it must be a whole number")
        return int(number)
    return number


def _friendly(problem: str) -> str:
    # jsonschema says "Additional properties are not allowed ('x' was unexpected)"; say it as
    # a user would want to read it.
    if "Additional properties are not allowed" in problem:
        where, _, rest = problem.partition(": ")
        keys = rest[rest.find("(") + 1 : rest.rfind(" was") if " was" in rest else None]
        section = where.removeprefix("at ").replace("(top level)", "top level")
        return f"unknown key {keys} in {section}"
    return problem


def _yaml_problem(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is not None:
        return f"line {mark.line + 1}, column {mark.column + 1}: {problem}"
    return str(problem)

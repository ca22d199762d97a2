"""The skill model and its checks: SKILL.md, frontmatter rules, links, secrets, one skill, a tree.

Pure: takes bytes and paths, does no I/O; may import only the standard library, yaml,
detect_secrets and gitcurator.errors/timeutil."""

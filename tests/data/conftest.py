"""Keep pytest out of fetched third-party data: hermes' comfyui skill ships its own tests and
conftest.py, which must not be collected or loaded as part of gitcurator's suite."""

collect_ignore = ["cache"]

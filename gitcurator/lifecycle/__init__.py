"""The deterministic lifecycle: rules and the lifecycle plan (pure), inventory rows, skill
history, schedule rules, and what a pass says of itself: run.json and commit messages (report)
and REPORT.md (report_markdown), both pure."""

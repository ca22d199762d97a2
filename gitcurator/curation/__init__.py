"""A curator pass, in four steps, and the schedule of automatic passes.

load (pass_inputs: reads the default branch and the records) -> plan (pass_plan, with
cluster_review asking the model and umbrella_plan holding its decisions: complete before
anything is written) -> apply (pass_apply: the commits, the branch, the states) -> report
(pass_report, pass_text: run.json, --json and the text, built once). A dry run is the same
pass without apply. Nothing here prints: progress goes to a ClusterProgress the command
passes in. May import every pure package, store, telemetry, audit and the model client.
"""

"""A pass seen before it is merged (pure): the review built from what the pass stored (run.json,
its commits), the screen, the pull-request description and the diffs. The shell
(commands/review) reads the branch; nothing here touches git or the terminal."""

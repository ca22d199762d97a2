"""Skills from upstream (pure): the three-way merge of a skill folder, the `npx skills` lock,
what a source is, a skill's provenance, and the plan of an update."""

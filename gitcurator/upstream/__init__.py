"""Skills from upstream: bringing a source's new version of a skill into the library.

Pure here: the three-way merge of one text file (`text_merge`, on `line_diff`), of a skill
folder (`folder_merge`) and the `npx skills` project lock (`skills_lock`); what a SOURCE names
(`source_spec`), a skill's provenance (`provenance`), what a copied folder may hold (`intake`),
`add --as`'s rename (`rename`) and the plan of an update (`update_plan`); they take bytes and
return data. May import the standard library and gitcurator.errors only.
"""

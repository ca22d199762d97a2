"""Skills from upstream: bringing a source's new version of a skill in, keeping local edits.

Pure here: the three-way merge of one text file as `git merge-file` does it (`text_merge`, on
git's line diff `line_diff` and `myers_search`), of a skill folder (`folder_merge`, with
`folder_renames`), the entries a source's folder may not bring (`folder_safety`), and the
`npx skills` project lock and its hash (`skills_lock`, `path_collation`); what a SOURCE names
(`source_spec`), a skill's provenance (`provenance`), what a copied folder may hold (`intake`),
`add --as`'s rename (`rename`) and the plan of an update (`update_plan`). They take bytes and
return data; they may import the standard library and gitcurator.errors only.
"""

"""git's own files read as git writes them, without dulwich, for the paths that cannot pay
for importing it (0.15 s of a `list --json` that takes 0.4 s): the repository's folders as
dulwich finds them (`gitfiles/repo_paths`), HEAD and refs (`gitfiles/refs`), the index's
submodule links (`gitfiles/index_links`) and the folders holding a `.git` of their own
(`gitfiles/nested_walk`). Anything these readers are not sure of they leave to the store,
which reads it through dulwich."""

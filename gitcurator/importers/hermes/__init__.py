"""Taking over a Hermes Agent skills folder.

Pure: state_files (Hermes' file names, .gitignore lines), formats (decoding its files), plan
(the facts of each skill), usage_records (the facts merged into records, the report's counts).
Shell: source (reading the folder), target (the repository, undo), skill_copy (copying into
another repository), import_commit (validate and commit), takeover (the whole import).
"""

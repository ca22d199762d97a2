"""One module per command, named after it (`pin.py` holds pin and unpin, `pause.py` pause and
resume): a function that opens the repository, calls the library and returns a
gitcurator.output.Result; it never prints. cli.py parses, calls it and emits the Result.

What several commands share has one module of its own: `skill_rows` (the rows the reading
commands start from), `provenance` (stamping origin and pin on records) and `moves` (a
person's move of skill folders on the default branch). Commands may import the whole library,
never click.
"""

"""Taking over a Hermes Agent skills folder: its state files, formats and the import plan."""

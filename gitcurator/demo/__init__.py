"""The sample library of `gitcurator demo`: its catalogue and timeline."""

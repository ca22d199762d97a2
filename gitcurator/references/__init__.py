"""The skill reference graph (pure): which skills and reference files (AGENTS.md, CLAUDE.md)
point at which skills, by links into a skill's folder or by naming it, and the rewrite of
those references when a fold retires a name. Imports `skills` and `umbrella.paths`; reads
files only through a loader it is given."""

"""The sample library of `gitcurator demo`: the catalogue of skills as package data
(skills/*.md, read by `catalogue`), their dated history and usage (`timeline`, pure) and the
builder that makes them a repository with gitcurator's own commands (`build`)."""

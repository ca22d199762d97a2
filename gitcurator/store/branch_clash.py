"""Branch names git cannot keep side by side, `curator` and `curator/x` (a ref is a file
where the other needs a folder), whether loose or in packed-refs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from dulwich.refs import Ref

from gitcurator.errors import StoreError

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def with_folders(names: Iterable[str], prefix: str) -> set[str]:
    """`names` and each folder they are in below `prefix`: git keeps no `curator/<id>` beside
    `curator/<id>/mine`, so a name with branches under it is taken too."""
    return {n[:i] for n in names for i in range(len(prefix), len(n) + 1) if _ends_at(n, i)}


def _ends_at(name: str, i: int) -> bool:
    return i == len(name) or name[i] == "/"


def refuse_clash(store: Store, name: str) -> None:
    """StoreError naming a branch in the way of a new branch `name`: one a folder of `name`
    names (`curator` for `curator/x`: loose, dulwich raised NotADirectoryError; packed, it
    made `curator/x` beside it), or one inside the folder `name` would be."""
    refs = store.repo.refs
    above = (name[:i] for i, c in enumerate(name) if c == "/")
    below = sorted(refs.keys(base=Ref(f"refs/heads/{name}/".encode())))
    clash = next((a for a in above if Ref(f"refs/heads/{a}".encode()) in refs), None)
    clash = clash or (f"{name}/{below[0].decode()}" if below else None)
    if clash is not None:
        raise StoreError(
            f"cannot create branch {name}: branch {clash} is in its way (git keeps no branch "
            f"beside a folder of branches of that name); rename it (`git branch -m {clash} "
            f"{clash}-old`) and run this again"
        )

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


def clash_of(store: Store, name: str) -> str | None:
    """The branch in the way of a new branch `name`: one a folder of `name` names (`curator`
    for `curator/x`: loose, dulwich raised NotADirectoryError; packed, it made `curator/x`
    beside it), or one inside the folder `name` would be; None if none is."""
    refs = store.repo.refs
    above = (name[:i] for i, c in enumerate(name) if c == "/")
    below = sorted(refs.keys(base=Ref(f"refs/heads/{name}/".encode())))
    clash = next((a for a in above if Ref(f"refs/heads/{a}".encode()) in refs), None)
    return clash or (f"{name}/{below[0].decode()}" if below else None)


def in_the_way(clash: str, where: str = "") -> str:
    """Why `clash` (on remote `where`) blocks a new branch; the fix renames it out of the folder."""
    there = f" on {where}" if where else ""
    return (
        f"branch {clash}{there} is in its way (git keeps no branch beside a folder of "
        f"branches of that name); rename it (`git branch -m {clash} "
        f"{clash.replace('/', '-')}-old`{' there' if where else ''}) and run this again"
    )


def refuse_clash(store: Store, name: str) -> None:
    """StoreError naming a branch in the way of a new branch `name` (clash_of)."""
    clash = clash_of(store, name)
    if clash is not None:
        raise StoreError(f"cannot create branch {name}: {in_the_way(clash)}")

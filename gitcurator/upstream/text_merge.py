"""A three-way merge of one text file, line by line, with the result `git merge-file -p` gives.

Both sides are diffed against the base (`line_diff`). Changes of one side that neither overlap
nor touch a change of the other are applied; where they overlap or touch (git counts
adjacent lines as overlapping), identical changes are taken once and different ones become a
conflict. Conflicts are then narrowed as git's default level (zealous, alnum) narrows them:
lines both sides agree on move out of the conflict, and two conflicts separated by at most
three lines, or by lines with no letter or digit, become one. Markers follow git's default
style (no base section) and the file's line endings (CRLF when the lines around use CRLF).
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcurator.upstream.line_diff import Hunk, diff_lines, split_lines
from gitcurator.upstream.myers_search import WorkBudget

MARKER_SIZE = 7


@dataclass(frozen=True, slots=True)
class TextMerge:
    """The merged bytes and how many conflict blocks (marked) they hold."""

    content: bytes
    conflicts: int


@dataclass(slots=True)
class _Region:
    """One entry of the merge list: mode 0 conflict, 1 take ours, 2 take theirs, 4 identical.

    `i0/chg0` are in the base, `i1/chg1` in ours, `i2/chg2` in theirs (as xdiff's xdmerge).
    """

    mode: int
    i0: int
    chg0: int
    i1: int
    chg1: int
    i2: int
    chg2: int


def merge_text(
    base: bytes,
    ours: bytes,
    theirs: bytes,
    labels: tuple[str, str, str] = ("local", "base", "upstream"),
) -> TextMerge:
    """Merge what `ours` and `theirs` each changed since `base`; conflicts get git's markers."""
    b_lines, o_lines, t_lines = split_lines(base), split_lines(ours), split_lines(theirs)
    budget = WorkBudget()  # one for the whole merge: a long file's work stays bounded
    mine, other = diff_lines(b_lines, o_lines, budget), diff_lines(b_lines, t_lines, budget)
    if not mine:
        return TextMerge(theirs, 0)
    if not other:
        return TextMerge(ours, 0)
    regions = _combine(mine, other, len(b_lines), o_lines, t_lines)
    regions = _refine(regions, o_lines, t_lines, budget)
    _join_close_conflicts(regions, o_lines)
    content = _render(regions, b_lines, o_lines, t_lines, labels)
    return TextMerge(content, sum(1 for r in regions if r.mode == 0))


def _combine(
    mine: list[Hunk], other: list[Hunk], n_base: int, ours: list[bytes], theirs: list[bytes]
) -> list[_Region]:
    """Walk both sides' hunks in base order: apart, each side's change is taken; overlapping
    or touching, identical changes are taken once and different ones conflict."""
    regions: list[_Region] = []
    a, b = 0, 0
    while a < len(mine) and b < len(other):
        x, y = mine[a], other[b]
        if x.a_start + x.a_count < y.a_start:
            i2 = y.b_start - y.a_start + x.a_start
            _append(regions, 1, x.a_start, x.a_count, x.b_start, x.b_count, i2, x.a_count)
            a += 1
            continue
        if y.a_start + y.a_count < x.a_start:
            i1 = x.b_start - x.a_start + y.a_start
            _append(regions, 2, y.a_start, y.a_count, i1, y.a_count, y.b_start, y.b_count)
            b += 1
            continue
        same = (x.a_start, x.a_count, x.b_count) == (y.a_start, y.a_count, y.b_count) and (
            ours[x.b_start : x.b_start + x.b_count] == theirs[y.b_start : y.b_start + y.b_count]
        )
        if not same:
            off = x.a_start - y.a_start
            ffo = off + x.a_count - y.a_count
            i0, i1, i2 = x.a_start, x.b_start, y.b_start
            if off > 0:
                i0, i1 = i0 - off, i1 - off
            else:
                i2 += off
            chg0 = x.a_start + x.a_count - i0
            chg1 = x.b_start + x.b_count - i1
            chg2 = y.b_start + y.b_count - i2
            if ffo < 0:
                chg0, chg1 = chg0 - ffo, chg1 - ffo
            else:
                chg2 += ffo
            _append(regions, 0, i0, chg0, i1, chg1, i2, chg2)
        end_x, end_y = x.a_start + x.a_count, y.a_start + y.a_count
        if end_x >= end_y:
            b += 1
        if end_y >= end_x:
            a += 1
    for x in mine[a:]:
        i2 = x.a_start + len(theirs) - n_base
        _append(regions, 1, x.a_start, x.a_count, x.b_start, x.b_count, i2, x.a_count)
    for y in other[b:]:
        i1 = y.a_start + len(ours) - n_base
        _append(regions, 2, y.a_start, y.a_count, i1, y.a_count, y.b_start, y.b_count)
    return regions


def _append(
    regions: list[_Region], mode: int, i0: int, chg0: int, i1: int, chg1: int, i2: int, chg2: int
) -> None:
    last = regions[-1] if regions else None
    if last and (i1 <= last.i1 + last.chg1 or i2 <= last.i2 + last.chg2):
        if mode != last.mode:
            last.mode = 0
        last.chg0 = i0 + chg0 - last.i0
        last.chg1 = i1 + chg1 - last.i1
        last.chg2 = i2 + chg2 - last.i2
    else:
        regions.append(_Region(mode, i0, chg0, i1, chg1, i2, chg2))


def _refine(
    regions: list[_Region], ours: list[bytes], theirs: list[bytes], budget: WorkBudget
) -> list[_Region]:
    """Narrow each conflict to the lines where the two sides really differ (git's zealous
    level): a conflict whose sides are equal is no conflict (mode 4, taken from ours)."""
    refined: list[_Region] = []
    for region in regions:
        if region.mode != 0 or not region.chg1 or not region.chg2:
            refined.append(region)
            continue
        mine = ours[region.i1 : region.i1 + region.chg1]
        other = theirs[region.i2 : region.i2 + region.chg2]
        hunks = diff_lines(mine, other, budget)
        if not hunks:
            region.mode = 4
            refined.append(region)
            continue
        for hunk in hunks:
            refined.append(
                _Region(
                    0,
                    region.i0,
                    region.chg0,
                    region.i1 + hunk.a_start,
                    hunk.a_count,
                    region.i2 + hunk.b_start,
                    hunk.b_count,
                )
            )
    return refined


def _join_close_conflicts(regions: list[_Region], ours: list[bytes]) -> None:
    """Two conflicts with at most three lines between them, or only lines without a letter
    or digit, read better as one (git's zealous-alnum level)."""
    k = 0
    while k + 1 < len(regions):
        here, after = regions[k], regions[k + 1]
        begin, end = here.i1 + here.chg1, after.i1
        gap = ours[begin:end]
        keep_apart = end - begin > 3 and any(_has_alnum(line) for line in gap)
        if here.mode != 0 or after.mode != 0 or keep_apart:
            k += 1
            continue
        here.chg1 = after.i1 + after.chg1 - here.i1
        here.chg2 = after.i2 + after.chg2 - here.i2
        del regions[k + 1]


def _has_alnum(line: bytes) -> bool:
    return any(chr(c).isascii() and chr(c).isalnum() for c in line)


def _render(
    regions: list[_Region],
    base: list[bytes],
    ours: list[bytes],
    theirs: list[bytes],
    labels: tuple[str, str, str],
) -> bytes:
    out: list[bytes] = []
    i = 0  # the next line of ours not yet written
    for r in regions:
        if r.mode == 0:
            crlf = _needs_crlf(base, ours, theirs, r)
            eol = b"\r\n" if crlf else b"\n"
            out.extend(ours[i : r.i1])
            out.append(b"<" * MARKER_SIZE + b" " + labels[0].encode() + eol)
            out.extend(_closed(ours[r.i1 : r.i1 + r.chg1], eol))
            out.append(b"=" * MARKER_SIZE + eol)
            out.extend(_closed(theirs[r.i2 : r.i2 + r.chg2], eol))
            out.append(b">" * MARKER_SIZE + b" " + labels[2].encode() + eol)
        elif r.mode == 1:
            out.extend(ours[i : r.i1 + r.chg1])
        elif r.mode == 2:
            start = r.i2 - r.i1 + i
            out.extend(theirs[start : start + r.i1 + r.chg2 - i])
        else:
            continue  # identical on both sides: written from ours with what follows
        i = r.i1 + r.chg1
    out.extend(ours[i:])
    return b"".join(out)


def _closed(lines: list[bytes], eol: bytes) -> list[bytes]:
    """A conflict side ends its last line, so the marker after it starts a line."""
    if lines and not lines[-1].endswith(b"\n"):
        return [*lines[:-1], lines[-1] + eol]
    return lines


def _needs_crlf(base: list[bytes], ours: list[bytes], theirs: list[bytes], r: _Region) -> bool:
    """Markers end in CRLF when the lines before the conflict on both sides, and the base's
    first line, do; undecidable (empty, one unterminated line) counts as agreeing."""
    verdict = _crlf_at(ours, r.i1 - 1 if r.i1 else 0)
    if verdict:
        verdict = _crlf_at(theirs, r.i2 - 1 if r.i2 else 0)
    if verdict:
        verdict = _crlf_at(base, 0)
    return verdict == 1


def _crlf_at(lines: list[bytes], i: int) -> int:
    """1 if line `i` ends in CRLF, 0 if in LF alone, -1 if it cannot tell."""
    if i < len(lines) - 1:
        return int(lines[i].endswith(b"\r\n"))
    if not lines:
        return -1
    if lines[i].endswith(b"\n"):
        return int(lines[i].endswith(b"\r\n"))
    if i == 0:
        return -1
    return int(lines[i - 1].endswith(b"\r\n"))

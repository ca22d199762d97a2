"""The order of JavaScript's `a.localeCompare(b)` in Node (ICU, root/en collation) as a sort key.

The `skills` CLI hashes a skill's files in `localeCompare` order, so `computedHash` depends on
it: `scripts/run.sh` comes before `SKILL.md` there (letters compare case-blind first), and
`_` before `-` before `.` before `/`. ICU compares in levels: the base characters of the whole
string first (punctuation, then symbols, then digits, then letters), then accents, then case
(lower before upper). For ASCII, which every skill file name we have seen uses, the table
below is the order Node 20 gives (recorded with it); other characters are placed as ICU's
root collation places their script or category, by code point within it, which is right for
accented Latin letters and an approximation for other scripts.
"""

from __future__ import annotations

import unicodedata

# Node 20 / ICU: the printable ASCII characters in localeCompare order, one base weight each
# (a letter's cases share one weight and differ at the case level).
ASCII_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
# Whitespace controls come before the space; every other control character is ignored.
WHITESPACE = "\t\n\v\f\r"

_PRIMARY = {ch: i + len(WHITESPACE) for i, ch in enumerate(ASCII_ORDER)}
_PRIMARY.update({ch: i for i, ch in enumerate(WHITESPACE)})
_PUNCTUATION_END = _PRIMARY["~"]  # other punctuation and symbols sort between ~ and $
_CURRENCY = _PRIMARY["$"]
_DIGITS_END = _PRIMARY["9"]
_LETTERS_END = _PRIMARY["z"]

CollationKey = tuple[tuple[float, ...], tuple[int, ...], tuple[int, ...]]


def locale_key(text: str) -> CollationKey:
    """A key that sorts strings as `localeCompare` does: base letters, then accents, then case."""
    primary: list[float] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    for char in text:
        if char == "ß":  # ICU: "ss" at the base level, after "ss" and "SS" at the case level
            primary += [_PRIMARY["s"], _PRIMARY["s"]]
            secondary += [0, 0]
            tertiary += [2, 2]
            continue
        compatible = unicodedata.normalize("NFKD", char)
        variant = 2 if compatible != unicodedata.normalize("NFD", char) else 0
        for part in compatible:
            if unicodedata.combining(part):
                secondary.append(1 + ord(part))
                continue
            weight = _base_weight(part)
            if weight is None:
                continue
            primary.append(weight)
            secondary.append(0)
            tertiary.append(variant or (1 if part.isupper() else 0))
    return tuple(primary), tuple(secondary), tuple(tertiary)


def _base_weight(char: str) -> float | None:
    lower = char.lower() if char.isascii() else char
    if lower in _PRIMARY:
        return _PRIMARY[lower]
    if ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0:
        return None  # control characters are ignorable
    category = unicodedata.category(char)
    fraction = ord(char) / 0x110000  # keeps code point order inside a slot
    if category == "Sc":
        return _CURRENCY + fraction
    if category[0] in "PSZ":
        return _PUNCTUATION_END + fraction
    if category[0] == "N":
        return _DIGITS_END + fraction
    return _LETTERS_END + fraction

"""The scanner: the phrase tables of `lang/` (Chinese, then both languages, then English) over
a text's tokens, left to right, each match built into an `Atom`.

Order matters where two phrases start on the same token: the first declared that matches and
builds wins (a builder that refuses passes the token to the next phrase that matches; one that
raises `Impossible` makes the text settle nothing).

Speed: every phrase's possible first classes are worked out from its pattern (`first_codes`),
and the scanner for a token holds only the phrases that can start with its class.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from resolver.timeexpr.atoms import IMPOSSIBLE, Atom
from resolver.timeexpr.found import MACROS, Found, Impossible, compile_phrase
from resolver.timeexpr.lang import Phrase
from resolver.timeexpr.lang.common import COMMON
from resolver.timeexpr.lang.en import EN
from resolver.timeexpr.lang.zh import ZH
from resolver.timeexpr.lexicon import CODE
from resolver.timeexpr.tokenlist import Tokens

__all__ = ["PHRASES", "SCANNERS", "compile_phrase", "first_codes", "named_phrases", "phrases"]

PHRASES: tuple[Phrase, ...] = (*ZH, *COMMON, *EN)


def _outer(name: str, pattern: str) -> str:
    compiled = compile_phrase(pattern)
    inner = re.sub(r"\(\?P([<=])(\w+)([>)])", lambda g: f"(?P{g[1]}{name}__{g[2]}{g[3]}", compiled)
    return f"(?P<{name}>{inner})"


_PIECE = re.compile(
    r"\(\?P<\w+>|\(\?:|\(\?=|\(\?!|\(\?<=|\(\?<!|\(\?P=\w+\)|[()|?*+$]|[A-Z][A-Z0-9_]*|_|\s+"
)
_LOOK = ("(?=", "(?!", "(?<=", "(?<!")
Item = tuple[frozenset[str], bool]  # (the classes it can start with, whether it can be empty)


def first_codes(pattern: str) -> set[str]:
    """The class codes a phrase (written with class names) can start with: the scanner for a
    token holds only the phrases that can start with its class. Worked out from the phrase as
    written — a small parser of the pattern language, no private `re` internals."""
    pieces = [p for p in _PIECE.findall(pattern) if not p.isspace()]
    if "".join(pieces) != "".join(pattern.split()):
        raise ValueError(f"unsupported syntax in a phrase: {pattern!r}")
    (codes, empty), end = _alternatives(pieces, 0)
    if end != len(pieces):
        raise ValueError(f"unbalanced phrase: {pattern!r}")
    if empty:
        raise ValueError(f"a phrase that can match nothing: {pattern!r}")
    return set(codes)


def _alternatives(pieces: list[str], index: int) -> tuple[Item, int]:
    """Alternatives up to a closing bracket or the end: their union."""
    codes: set[str] = set()
    empty = False
    while True:
        (seq_codes, seq_empty), index = _sequence(pieces, index)
        codes |= seq_codes
        empty = empty or seq_empty
        if index < len(pieces) and pieces[index] == "|":
            index += 1
            continue
        return (frozenset(codes), empty), index


def _sequence(pieces: list[str], index: int) -> tuple[Item, int]:
    codes: set[str] = set()
    open_ = True  # still at the sequence's start (every item so far may be empty)
    while index < len(pieces) and pieces[index] not in ("|", ")"):
        (item_codes, item_empty), index = _item(pieces, index)
        if index < len(pieces) and pieces[index] in ("?", "*", "+"):
            item_empty = item_empty or pieces[index] != "+"
            index += 1
        if open_:
            codes |= item_codes
            open_ = item_empty
    return (frozenset(codes), open_), index


def _item(pieces: list[str], index: int) -> tuple[Item, int]:
    piece = pieces[index]
    if piece == "_":
        return (frozenset(CODE["SPACE"]), True), index + 1
    if piece == "$" or piece.startswith("(?P="):
        return (frozenset(), True), index + 1
    if piece.startswith("("):
        inner, end = _alternatives(pieces, index + 1)
        if end >= len(pieces) or pieces[end] != ")":
            raise ValueError("unbalanced phrase")
        return ((frozenset(), True) if piece in _LOOK else inner), end + 1
    if piece in MACROS:
        macro = MACROS[piece]
        return (frozenset(first_codes(macro)), False), index + 1
    return (frozenset(CODE[piece]), False), index + 1


def _scanners() -> tuple[dict[str, re.Pattern[str]], dict[str, list[tuple[str, re.Pattern[str]]]]]:
    by_code: dict[str, list[tuple[str, str]]] = {}
    for name, pattern, _, _ in PHRASES:
        outer = _outer(name, pattern)
        for code in first_codes(pattern):
            by_code.setdefault(code, []).append((name, outer))
    joined = {code: re.compile("|".join(o for _, o in outers)) for code, outers in by_code.items()}
    each = {
        code: [(name, re.compile(outer)) for name, outer in outers]
        for code, outers in by_code.items()
    }
    return joined, each


# A phrase's builder: its match read into an atom, or None to refuse it (`lang/__init__.py`).
Builder = Callable[[Found], Atom | None]
_BUILDERS: dict[str, Builder] = {phrase.name: phrase.builder for phrase in PHRASES}
# One scanner per first class (every phrase that can start with it, in table order), and the
# same phrases one by one, for when the first phrase that matches refuses (三年 is no year:
# then 三年前 may still be 3 years ago).
SCANNERS, _EACH = _scanners()
# The classes any phrase starts with: the scan jumps from one to the next in C.
_TRIGGER = re.compile("[" + re.escape("".join(sorted(SCANNERS))) + "]")


def phrases(tokens: Tokens) -> Iterator[tuple[Atom, int, int]]:
    """Yield each phrase the grammar reads in the tokens, left to right: its atom and its span
    of tokens. A phrase whose builder refuses it (a month 13, a 2月30日) yields nothing."""
    for _, atom, start, end in named_phrases(tokens):
        yield atom, start, end


def named_phrases(tokens: Tokens) -> Iterator[tuple[str, Atom, int, int]]:
    """`phrases`, with the name of the phrase that read each (tests/timeexpr/test_tables.py)."""
    codes = tokens.codes
    index = 0
    scanners = SCANNERS
    while (trigger := _TRIGGER.search(codes, index)) is not None:
        index = trigger.start()
        found = scanners[codes[index]].match(codes, index)
        if found is None:
            index += 1
            continue
        atom = _build(found, tokens)
        if atom is None:
            found, atom = _next_phrase(codes, tokens, index, found.lastgroup or "")
        if atom is None or found is None:
            index += 1
            continue
        yield found.lastgroup or "", atom, index, found.end()
        index = max(found.end(), index + 1)


def _next_phrase(
    codes: str, tokens: Tokens, index: int, refused: str
) -> tuple[re.Match[str] | None, Atom | None]:
    """The first phrase after `refused` that matches at `index` and builds."""
    later = False
    for name, pattern in _EACH[codes[index]]:
        if not later:
            later = name == refused
            continue
        found = pattern.match(codes, index)
        if found is not None and (atom := _build(found, tokens)) is not None:
            return found, atom
    return None, None


def _build(match: re.Match[str], tokens: Tokens) -> Atom | None:
    found = Found(match, tokens)
    try:
        return _BUILDERS[found.name](found)
    except Impossible:
        return IMPOSSIBLE
    except (ValueError, OverflowError):  # Refused, a month 13, a 30th of February, year 0
        return None
    # Anything else (TypeError, KeyError, AttributeError …) is a builder's bug: it propagates.

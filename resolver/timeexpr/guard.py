"""The guard pass (SPEC §4.2, §4.3): every time-like token of a text lies inside what was read,
or the text settles nothing — and the runs of time-like words left over are what the ask
names (never punctuation or a plain word: those are no time-like token)."""

from __future__ import annotations

import re

from resolver.timeexpr.detector import time_like
from resolver.timeexpr.lexicon import CODE, KIND
from resolver.timeexpr.tokens import Tokens

# Tokens that may be time-like: any that is no plain word (a plain word never is).
_MAYBE_TIME = re.compile(
    "[" + re.escape("".join(code for code, kind in KIND.items() if kind != "plain")) + "]"
)


def all_covered(codes: str, covered: bytearray) -> bool:
    """Whether every token that may be time-like was read (most texts: the detector need not
    run)."""
    return all(covered[found.start()] for found in _MAYBE_TIME.finditer(codes))


# What a run of unread words may hold between two of them: a space, a clock's colon (下午3:30).
_RUN_GLUE = frozenset((CODE["SPACE"], CODE["COLON"]))


def unread_runs(tokens: Tokens, covered: bytearray, text: str) -> tuple[str, ...]:
    """The runs of time-like tokens outside everything read, as written in the text."""
    marks = time_like(tokens, covered)
    runs: list[str] = []
    index = 0
    while index < len(tokens):
        if marks[index] and not covered[index]:
            last = index
            following = index + 1
            while following < len(tokens) and (
                (marks[following] and not covered[following])
                or tokens.codes[following] in _RUN_GLUE
            ):
                if marks[following]:
                    last = following
                following += 1
            runs.append(text[tokens.starts[index] : tokens.ends[last]])
            index = last + 1
        else:
            index += 1
    return tuple(runs)


def time_words(tokens: Tokens, text: str, limit: int = 3) -> tuple[str, ...]:
    """The first time-like words of a text (SPEC §4.2), as written: what a text too long or
    too full of time to read names in its ask (never an internal marker)."""
    marks = time_like(tokens)
    words = [
        text[tokens.starts[index] : tokens.ends[index]]
        for index, marked in enumerate(marks)
        if marked
    ]
    return tuple(words[:limit])

"""Regular expressions an upstream wrote (a tool's `pattern`, `patternProperties`), run by RE2.

Python's `re` backtracks: `^(a+)+$` against 26 a's and a b takes seconds, and the MCP proxy
checks arguments against patterns an upstream supplied, on the event loop. RE2 matches in time
linear in the text, whatever the pattern. What it cannot run (backreferences, lookaround) is
refused rather than run by a backtracking engine: `UncheckablePattern`.
"""

from __future__ import annotations

import functools
from typing import Any

import re2

# RE2's memory for one compiled pattern; beyond it, RE2 refuses the pattern.
_MAX_MEM = 8 << 20
_CACHED = 512


class UncheckablePattern(ValueError):
    """A pattern RE2 cannot run (or not within its memory bound)."""


@functools.lru_cache(maxsize=_CACHED)
def compiled(pattern: str) -> Any:
    """The pattern compiled by RE2 (cached); `UncheckablePattern` when RE2 refuses it."""
    options = re2.Options()
    options.log_errors = False  # a refused pattern is our answer, not a line on stderr
    options.max_mem = _MAX_MEM
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raise UncheckablePattern(_reason(exc)) from None


def search(pattern: str, text: str) -> bool:
    """Whether `pattern` matches somewhere in `text` (JSON Schema's `pattern` semantics)."""
    return compiled(pattern).search(text) is not None


def _reason(exc: BaseException) -> str:
    message = exc.args[0] if exc.args else str(exc)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    return " ".join(str(message).split())[:200]

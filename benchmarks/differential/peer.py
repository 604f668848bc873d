"""The independent recognizer: dateparser's `search_dates`, reporting the substrings it takes
for dates. Loaded lazily (it is an optional extra: `pip install -e '.[peers]'`)."""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")

Search = Callable[..., list[tuple[str, datetime]] | None]


def available() -> bool:
    """Whether dateparser is installed."""
    try:
        importlib.import_module("dateparser.search")
    except ImportError:
        return False
    return True


def version() -> str:
    """The installed dateparser's version."""
    return str(importlib.import_module("dateparser").__version__)


def languages(text: str) -> list[str]:
    """dateparser's languages by script: Chinese, English, or both for a mixed text."""
    cjk, latin = bool(_CJK.search(text)), bool(_LATIN.search(text))
    if cjk and latin:
        return ["zh", "en"]
    return ["zh"] if cjk else ["en"]


class Peer:
    """`mentions(text, now_ms, zone)`: what dateparser reports as dates, as written."""

    def __init__(self) -> None:
        module: Any = importlib.import_module("dateparser.search")
        self._search: Search = module.search_dates

    def mentions(self, text: str, now_ms: int, zone: str) -> list[str]:
        """The substrings of `text` dateparser reads as dates, in its order."""
        base = datetime.fromtimestamp(now_ms / 1000, ZoneInfo(zone)).replace(tzinfo=None)
        settings = {"RELATIVE_BASE": base, "RETURN_AS_TIMEZONE_AWARE": False}
        with warnings.catch_warnings():
            # dateparser warns (and the test suite errors on warnings) about its own parsing
            # internals, e.g. a deprecated day-of-month default; none concerns the mentions.
            warnings.simplefilter("ignore")
            found = self._search(text, languages=languages(text), settings=settings)
        return [mention for mention, _ in found or ()]

"""`python -m benchmarks timespeed --against REV` loads another revision's reader whole (its
`lang/` tables too) and, with `--cold`, clears that revision's reading cache as well as ours:
else the other side is timed warm and the cold ratio means nothing."""

from __future__ import annotations

import importlib
from zoneinfo import ZoneInfo

from benchmarks.timespeed import _scanner_at
from resolver.timeexpr import resolve_time

NOW_MS = 1762996342241


def test_another_revision_is_loaded_whole_and_its_cache_can_be_cleared() -> None:
    scanner, clear = _scanner_at("HEAD")
    tz = ZoneInfo("Asia/Shanghai")
    theirs = scanner("上个月的销量", now_ms=NOW_MS, tz=tz, instant=None, step=None)
    ours = resolve_time("上个月的销量", now_ms=NOW_MS, tz=tz)
    assert theirs is not None
    assert ours is not None
    assert theirs.params() == ours.params()
    reading = importlib.import_module(clear.__module__)
    assert reading._read.cache_info().currsize > 0
    clear()
    assert reading._read.cache_info().currsize == 0

"""What the time reader's table-driven test modules share (`test_accounted.py`,
`test_zh_families.py`, `test_en_word_forms.py`): one clock, one zone, and the window a text
reads as local ISO times — or None when nothing settles."""

from __future__ import annotations

from resolver.timeexpr import read_window

NOW_MS = 1762996342241  # 2025-11-13T09:12:22.241+08:00, a Thursday
ZONE = "Asia/Shanghai"
NOW = "2025-11-13T09:12:22.241"

Expected = tuple[str, str, str] | None  # (start, end, step) as local ISO times, or nothing
NOTHING: Expected = None
LAST_MONTH: Expected = ("2025-10-01T00:00:00.000", "2025-10-31T23:59:59.999", "month")


def day(first: str, last: str | None = None) -> Expected:
    """The days from `first` to `last` (or the one day), step day."""
    return (f"{first}T00:00:00.000", f"{last or first}T23:59:59.999", "day")


def window(text: str) -> Expected:
    """The window `text` reads at the shared clock, or None when nothing settles."""
    answer = read_window(text, now_ms=NOW_MS, timezone=ZONE)
    if not answer.settled:
        return None
    assert answer.start_iso is not None
    assert answer.end_iso is not None
    assert answer.step
    return (answer.start_iso[:23], answer.end_iso[:23], answer.step)

"""A step written as a word (SPEC §3: `step` in additional_context takes §4's step words)."""

from __future__ import annotations

from resolver.timeexpr.lexicon import normalize
from resolver.timeexpr.patterns import STEP_WORDS
from resolver.timeexpr.result import STEPS, Step

_UNIT_WORDS: dict[str, Step] = {step: step for step in STEPS}
_UNIT_WORDS |= {step + "s": step for step in STEPS}
_UNIT_WORDS |= {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "月": "month",
    "季": "quarter",
    "季度": "quarter",
    "年": "year",
}


def step_of(value: str) -> Step | None:
    """Return the step a word names (month, Month, monthly, 按月, 月度, 月), or None."""
    text = normalize(value).strip()
    if text in _UNIT_WORDS:
        return _UNIT_WORDS[text]
    match = STEP_WORDS.fullmatch(text)
    if match is None or match.lastgroup is None:
        return None
    return _UNIT_WORDS[match.lastgroup]

"""A step written as a word (SPEC §3: `step` in additional_context takes §4's step words)."""

from __future__ import annotations

from resolver.timeexpr.lexicon import EN, EN_PHRASES, UNIT_OF, ZH, normalize
from resolver.timeexpr.result import STEPS, Step

_UNIT_WORDS: dict[str, Step] = {step: step for step in STEPS}
_UNIT_WORDS |= {step + "s": step for step in STEPS}


def step_of(value: str) -> Step | None:
    """Return the step a word names (month, Month, monthly, by month, 按月, 月度, 月), or None."""
    text = " ".join(normalize(value).split())
    if text in _UNIT_WORDS:
        return _UNIT_WORDS[text]
    for table in (ZH, EN, EN_PHRASES):
        entry = table.get(text)
        if entry is None:
            continue
        cls, found = entry
        if cls == "STEP" and isinstance(found, str):
            return found  # type: ignore[return-value]
        if cls in UNIT_OF and cls not in ("FORTNIGHT",):
            return UNIT_OF[cls]  # 月, 季度, 周
    return None

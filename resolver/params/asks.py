"""The one-sentence asks of a 422, in the language of the query (SPEC §2.1)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from rules.spec import METRIC_TIME_PARAMS

Language = Literal["zh", "en"]

_CJK = re.compile(r"[\u3400-\u9fff]")


def language_of(*texts: str) -> Language:
    """Chinese when any of the texts holds CJK characters (the query first), else English."""
    for text in texts:
        if text.strip():
            return "zh" if _CJK.search(text) else "en"
    return "zh"


# The time ask names what an agent may send (SPEC §4.1); each example settles when sent back
# as additional_context (tests/params/test_agent_loop.py sends every one of them).
_TIME_ASK = {
    "zh": (
        "请在 additional_context 中说明时间范围（如最近3个月、2024年1月至3月，"
        "或 start=2024-01-01；end=2024-03-31；step=month），或说明查询当前值（instant=true）"
    ),
    "en": (
        "please state the time range in additional_context (e.g. last 3 months, "
        "January to March 2024, or start=2024-01-01; end=2024-03-31; step=month), "
        "or say you want the current value (instant=true)"
    ),
}
_STEP_ASK = {
    "zh": "请在 additional_context 中说明步长（如 step=month 或 按月）",
    "en": "please state the step in additional_context (e.g. step=month or monthly)",
}
_INSTANT_ASK = {
    "zh": "请在 additional_context 中说明是否查询当前值（instant=true 或 instant=false）",
    "en": "please say in additional_context whether you want the current value "
    "(instant=true or instant=false)",
}


def ask_for(missing: Sequence[str], language: Language) -> str:
    """What the agent should add to `additional_context` for these missing params."""
    time_missing = [p for p in missing if p in METRIC_TIME_PARAMS]
    business = [p for p in missing if p not in METRIC_TIME_PARAMS]
    parts: list[str] = []
    if time_missing == ["step"]:
        parts.append(_STEP_ASK[language])
    elif time_missing == ["instant"]:
        parts.append(_INSTANT_ASK[language])
    elif time_missing:
        parts.append(_TIME_ASK[language])
    if language == "zh":
        if business:
            keys = "、".join(business)
            example = "；".join(f"{p}=…" for p in business)
            parts.append(f"请在 additional_context 中补充 {keys}（例如 {example}）")
        return "；".join(parts)
    if business:
        example = "; ".join(f"{p}=…" for p in business)
        parts.append(f"please add {', '.join(business)} to additional_context (e.g. {example})")
    sentence = "; ".join(parts)
    return sentence[:1].upper() + sentence[1:]

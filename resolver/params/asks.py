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


def ask_for(missing: Sequence[str], language: Language) -> str:
    """What the agent should add to `additional_context` for these missing params."""
    time_missing = [p for p in missing if p in METRIC_TIME_PARAMS]
    business = [p for p in missing if p not in METRIC_TIME_PARAMS]
    parts: list[str] = []
    if language == "zh":
        if time_missing:
            parts.append("请明确查询的时间范围和步长，或说明查询当前值")
        if business:
            keys = "、".join(business)
            example = "；".join(f"{p}=…" for p in business)
            parts.append(f"请在 additional_context 中补充 {keys}（例如 {example}）")
        return "；".join(parts)
    if time_missing:
        parts.append("please state the time range and step, or say you want the current value")
    if business:
        example = "; ".join(f"{p}=…" for p in business)
        parts.append(f"please add {', '.join(business)} to additional_context (e.g. {example})")
    sentence = "; ".join(parts)
    return sentence[:1].upper() + sentence[1:]

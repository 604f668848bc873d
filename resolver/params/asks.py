"""The one-sentence asks of a 422, in the language of the query (SPEC §2.1)."""

from __future__ import annotations

from collections.abc import Sequence

from resolver.core.asks import ask_sentence
from resolver.timeexpr.timewindow import TIME_ASK, Language, language_of, unread_clause
from rules.spec import METRIC_TIME_PARAMS

__all__ = [
    "Language",
    "ask_for",
    "fiscal_ask",
    "language_of",
    "no_time_dimension_ask",
    "unread_clause",
]

_STEP_ASK = {
    "zh": "请在 additional_context 中说明步长（如 step=month 或 按月）",
    "en": "please state the step in additional_context (e.g. step=month or monthly)",
}
_INSTANT_ASK = {
    "zh": "请在 additional_context 中说明是否查询当前值（instant=true 或 instant=false）",
    "en": "please say in additional_context whether you want the current value "
    "(instant=true or instant=false)",
}


def ask_for(missing: Sequence[str], language: Language, unread: tuple[str, ...] = ()) -> str:
    """What the agent should add to `additional_context` for these missing params; the time
    words the scanner could not read (`unread`) are named first."""
    time_missing = [p for p in missing if p in METRIC_TIME_PARAMS]
    business = [p for p in missing if p not in METRIC_TIME_PARAMS]
    parts: list[str] = []
    if time_missing == ["step"]:
        parts.append(_STEP_ASK[language])
    elif time_missing == ["instant"]:
        parts.append(_INSTANT_ASK[language])
    elif time_missing:
        parts.append(TIME_ASK[language])
    if time_missing and unread:
        parts.insert(0, unread_clause(language, unread))
    if business and language == "zh":
        keys = "、".join(business)
        example = "；".join(f"{p}=…" for p in business)
        parts.append(f"请在 additional_context 中补充 {keys}（例如 {example}）")
    elif business:
        example = "; ".join(f"{p}=…" for p in business)
        parts.append(f"please add {', '.join(business)} to additional_context (e.g. {example})")
    return ask_sentence(language, *parts)


_NO_TIME_DIMENSION_ASK = {
    "zh": (
        "该指标没有时间维度，只能查询当前值：请去掉问题中的时间范围，"
        "或说明查询当前值（instant=true）"
    ),
    "en": "this metric has no time dimension and can only be read as its current value: drop "
    "the time range from the question, or ask for the current value (instant=true)",
}


def no_time_dimension_ask(language: Language, unread: tuple[str, ...] = ()) -> str:
    """The ask of a period named for a metric with no time dimension (SPEC §9.1)."""
    ask = _NO_TIME_DIMENSION_ASK[language]
    if unread:
        return ask_sentence(language, unread_clause(language, unread), ask)
    return ask_sentence(language, ask)


_FISCAL_METRIC_ASK = {
    "zh": (
        "请说明财年起始日，如 fiscal_year_start=04-01"
        "（在 additional_context 中，或写明：财年从4月1日开始）"
    ),
    "en": "please state when the fiscal year starts, e.g. fiscal_year_start=04-01 in "
    "additional_context (or: our fiscal year starts on April 1)",
}


def fiscal_ask(language: Language, unread: tuple[str, ...] = ()) -> str:
    """The ask of a fiscal period with no fiscal calendar anywhere (SPEC §9.1)."""
    ask = _FISCAL_METRIC_ASK[language]
    if unread:
        return ask_sentence(language, unread_clause(language, unread), ask)
    return ask_sentence(language, ask)

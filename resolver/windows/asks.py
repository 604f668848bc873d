"""The ask of a time window that did not settle: the words not read, then what to send.

It names the request's own fields (`context`, `instant`), not `additional_context`: the time
ask of `/v1/dynamic-params` would send a caller of this face to a field it does not have. Each
example settles when sent back as `context` (tests/windows/test_asks.py sends every one).
"""

from __future__ import annotations

from resolver.core.asks import ask_sentence
from resolver.core.languages import Language
from resolver.timeexpr.fiscal_config import fiscal_ask as library_fiscal_ask
from resolver.timeexpr.timewindow import unread_clause

EXAMPLES: dict[Language, tuple[str, ...]] = {
    "zh": ("最近3个月", "2024年1月至3月", "2024-01-01至2024-03-31"),
    "en": ("last 3 months", "January to March 2024", "2024-01-01 to 2024-03-31"),
}
_ASK: dict[Language, str] = {
    "zh": "请改写 text，或在 context 中写明时间范围（如{examples}），或传 instant=true 查询当前值",
    "en": (
        "please rephrase text or state the time range in context (e.g. {examples}), or send "
        "instant=true for the current value"
    ),
}


def window_ask(language: Language, unread: tuple[str, ...] = ()) -> str:
    """The one sentence telling what to send for a window, naming the words not read."""
    separator = "、" if language == "zh" else ", "
    ask = _ASK[language].format(examples=separator.join(EXAMPLES[language]))
    if unread:
        return ask_sentence(language, unread_clause(language, unread), ask)
    return ask_sentence(language, ask)


def fiscal_ask(language: Language, unread: tuple[str, ...] = ()) -> str:
    """The ask of a fiscal phrase with no fiscal calendar configured: it names the request's
    `fiscal_year_start` field and a context sentence (SPEC §9.1)."""
    return library_fiscal_ask(language, unread)

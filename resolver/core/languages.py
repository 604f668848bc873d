"""The caller's language (`Accept-Language`: zh-CN or en-US) and the `_error` line in it.

`accept_language` reads the header as RFC 9110 says: comma-separated language ranges, each with
an optional weight `;q=` (0 to 1, at most three decimals; a malformed weight drops its range;
`q=0` means "not this one"). The highest weight wins, the earlier range on a tie. `zh`,
`zh-CN`, `zh-SG`, `zh-Hans…` mean simplified Chinese; `en` and every `en-…` English. Traditional
Chinese (`zh-TW`, `zh-HK`, `zh-MO`, `zh-Hant…`), `*` and other languages are not offered: they
are passed over, and a header naming nothing offered counts as absent.

Only the `_error` line is localised here (and, by the resolution, the asks and hints it
carries); `error.message` and `error.details` stay English for machines and logs. In Chinese,
`_error` is the error code's description followed by the English message, which names the
values involved; the 422 line is built from the localised asks and keeps its seed-003 framing
(`missing <property>: <params> | ask: <ask>`), or is the time ask itself (`TIME_UNSETTLED`).
"""

from __future__ import annotations

import re

from resolver.core.errors import MissingParams, ResolverError, TimeUnsettled

# One `Language` in the house: the time scanner's, a library of its own that every face
# answers in (its asks and explanations are written in these two).
from resolver.timeexpr.timewindow import Language

__all__ = ["ZH_DESCRIPTIONS", "Language", "accept_language", "error_line"]

_WEIGHT = re.compile(r"q=(0(\.[0-9]{0,3})?|1(\.0{0,3})?)", re.IGNORECASE)
_TRADITIONAL = ("zh-tw", "zh-hk", "zh-mo", "zh-hant")
_MAX_RANGES = 32

ZH_DESCRIPTIONS: dict[str, str] = {
    "BAD_REQUEST": "请求无效",
    "INVALID_JSON": "请求体不是有效的 JSON",
    "INVALID_DYNAMIC_PARAMS": "调用方提供的参数值不符合规则",
    "INVALID_PROPERTY": "请求的逻辑属性不存在",
    "INVALID_BUSINESS_CONTEXT": "bkn_context 的格式不正确",
    "MODEL_NOT_ALLOWED": "请求的 llm_model 不在本服务允许的模型之列",
    "UNSUPPORTED_ACTION_TYPE": "不支持该行动的来源类型",
    "INVALID_ARGUMENTS": "工具参数不符合其 inputSchema",
    "LLM_BUDGET_EXCEEDED": "请求所需的大模型调用超出单个请求的上限",
    "FORBIDDEN": "禁止从该来源访问",
    "UNAUTHORIZED": "调用方的凭据未通过上游服务的认证",
    "PERMISSION_DENIED": "调用方无权访问",
    "NOT_FOUND": "未找到",
    "OBJECT_TYPE_NOT_FOUND": "对象类不存在",
    "ACTION_TYPE_NOT_FOUND": "行动类不存在",
    "TOOL_NOT_FOUND": "工具不存在",
    "PAYLOAD_TOO_LARGE": "请求体过大",
    "UNSUPPORTED_MEDIA_TYPE": "请以 application/json 发送请求体",
    "TIME_UNSETTLED": "无法确定时间窗口",
    "LLM_UNAVAILABLE": "大模型服务不可用",
    "LLM_OUTPUT_INVALID": "大模型的输出不符合规则",
    "LLM_TIMEOUT": "大模型未能及时响应",
    "UPSTREAM_ERROR": "上游服务调用失败",
    "UPSTREAM_TIMEOUT": "请求在等待上游服务时超时",
    "BODY_TIMEOUT": "请求体未在时限内送达",
    "SCHEMA_CONVERSION_ERROR": "工具的 schema 无法转换",
    "OVERLOADED": "服务繁忙，请稍后重试",
    "NOT_CONFIGURED": "服务缺少所需的上游配置",
    "SHUTTING_DOWN": "服务正在停止，请重试",
}
_ZH_OTHER = "请求失败"


def accept_language(header: str | None) -> Language | None:
    """The offered language the header prefers most; None when it names none of them."""
    if not header:
        return None
    best: tuple[float, Language] | None = None
    for item in header.split(",")[:_MAX_RANGES]:
        tag, _, params = item.strip().partition(";")
        weight = _weight(params)
        language = _language(tag.strip().lower().replace("_", "-"))
        if weight is None or weight <= 0 or language is None:
            continue
        if best is None or weight > best[0]:
            best = (weight, language)
    return None if best is None else best[1]


def error_line(error: ResolverError, language: Language | None) -> str:
    """The `_error` line of `error` in the caller's language (English unless asked)."""
    line = error.one_line()
    if language != "zh" or isinstance(error, MissingParams | TimeUnsettled):
        return line  # built from asks already in the answer's language
    return f"{ZH_DESCRIPTIONS.get(error.code, _ZH_OTHER)}：{line}"


def _weight(params: str) -> float | None:
    params = params.strip()
    if not params:
        return 1.0
    match = _WEIGHT.fullmatch(params.replace(" ", ""))
    return float(match.group(1)) if match else None


def _language(tag: str) -> Language | None:
    if tag == "en" or tag.startswith("en-"):
        return "en"
    if tag == "zh" or (tag.startswith("zh-") and not tag.startswith(_TRADITIONAL)):
        return "zh"
    return None

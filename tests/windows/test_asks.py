"""The ask of a 422 TIME_UNSETTLED: it names the words not read, in the answer's language, and
each range it offers as an example settles when an agent sends it back as `context`."""

from __future__ import annotations

import pytest

from resolver.core.errors import TimeUnsettled
from resolver.core.languages import Language
from resolver.windows.asks import EXAMPLES, window_ask
from resolver.windows.models import TimeWindowRequest
from resolver.windows.service import TimeWindows
from tests.helpers import NOW_MS

WINDOWS = TimeWindows(default_timezone="Asia/Shanghai")


@pytest.mark.parametrize(
    ("language", "example"),
    [(language, example) for language, examples in EXAMPLES.items() for example in examples],
)
def test_every_example_of_the_ask_settles_as_context(language: Language, example: str) -> None:
    text = {"zh": "2024年3月前后的销量", "en": "sales last month or later"}[language]
    request = TimeWindowRequest(text=text, now_ms=NOW_MS)
    with pytest.raises(TimeUnsettled) as refused:
        WINDOWS.answer(request, "t")
    for example_word in EXAMPLES[language]:
        assert example_word in refused.value.ask
    retry = request.model_copy(update={"context": example})
    answer = WINDOWS.answer(retry, "t")
    assert answer.start is not None
    assert answer.end is not None


def test_instant_true_answers_the_current_value() -> None:
    request = TimeWindowRequest(text="2024年3月前后", now_ms=NOW_MS, instant=True)
    assert WINDOWS.answer(request, "t").instant is True


def test_the_ask_names_the_unread_words_in_its_language() -> None:
    assert window_ask("zh", ("前后",)).startswith("无法确定时间：“前后”；请改写 text")
    assert window_ask("en", ("or later",)).startswith('Could not read: "or later"; please')
    assert window_ask("en").startswith("Please rephrase text or state the time range in context")
    assert "additional_context" not in window_ask("zh") + window_ask("en")

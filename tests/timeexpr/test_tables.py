"""The reader's knowledge is checked data (issue 28 items 1–2, STYLE 24): every word has one
class, every class and phrase is used, every phrase reads its own examples to its declared
window and is not shadowed there, and `timeexpr.__all__` is pinned."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import resolver.timeexpr
from resolver.timeexpr import read_window
from resolver.timeexpr.fiscal import FiscalCalendar
from resolver.timeexpr.found import MACROS
from resolver.timeexpr.grammar import PHRASES, named_phrases
from resolver.timeexpr.lang import Phrases, Words
from resolver.timeexpr.lexicon import CODE, EN, EN_PHRASES, KIND, ZH, normalize
from resolver.timeexpr.tokens import tokenize

NOW_MS = 1762996342241  # 2025-11-13T09:12:22.241+08:00, a Thursday
# The fiscal calendar fiscal phrases' examples are read in (issue 31): FY2026 = 2025-04-01 ..
# 2026-03-31 at NOW_MS. Calendar phrases do not depend on it.
FISCAL = FiscalCalendar.of("04-01", "end")
PACKAGE = Path(resolver.timeexpr.__file__).parent


def test_a_word_is_given_one_class_only() -> None:
    words = Words()
    words.add("MONTH", "月 月份")
    words.add("MONTH", "月")  # the same class again is no conflict
    words.add("FEN", "分")
    with pytest.raises(ValueError, match="分"):
        words.add("ZH_EVERY", "分")
    with pytest.raises(ValueError, match="is MONTH already"):
        words |= {"月": ("DAY", None)}
    for table in (ZH, EN, EN_PHRASES):
        assert isinstance(table, Words)  # every word table refuses a second class


def test_a_phrase_is_declared_once() -> None:
    table = Phrases("test")
    table.add("p", "Y4", lambda found: None)
    with pytest.raises(ValueError, match="twice"):
        table.add("p", "D12", lambda found: None)
    names = [phrase.name for phrase in PHRASES]
    assert len(names) == len(set(names))


# Classes the tokenizer makes itself, from digits, labels, symbols and gaps.
_MADE_BY_THE_TOKENIZER = {
    "Y4", "D12", "D0", "D8", "DN", "ORD", "COUNT", "YEARCOUNT", "BADNUM", "ZHN", "ENN", "ORDW",
    "QLABEL", "HLABEL", "WLABEL", "FISCAL", "SPACE", "BAR", "OTHER", "OTHERDAY", "DASH", "SLASH",
    "DOT", "COMMA", "COLON", "CMP", "PLUS", "MONEY", "PERCENT", "HASH", "APOS", "AMPM",
}  # fmt: skip


def test_every_class_is_made_and_used() -> None:
    given = {cls for table in (ZH, EN, EN_PHRASES) for cls, _ in table.values()}
    sources = "\n".join(path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py"))
    patterns = " ".join([p.pattern for p in PHRASES] + list(MACROS.values()))
    in_patterns = set(re.findall(r"[A-Z][A-Z0-9_]*", patterns))
    for name, code in CODE.items():
        assert name in given or name in _MADE_BY_THE_TOKENIZER, f"no word has class {name}"
        # used: read by a phrase, named by a pass, or time-like for the guard (kind)
        named = f'"{name}"' in sources.replace(f'"{name}": "', "")
        assert name in in_patterns or named or KIND[code] != "plain", f"class {name} unused"


@pytest.mark.parametrize("phrase", PHRASES, ids=[p.name for p in PHRASES])
def test_every_phrase_reads_its_own_examples_and_is_not_shadowed(phrase: object) -> None:
    from resolver.timeexpr.lang import Phrase

    assert isinstance(phrase, Phrase)
    assert phrase.examples, f"{phrase.name} declares no example"
    for text, expression in phrase.examples:
        answer = read_window(text, now_ms=NOW_MS, timezone="Asia/Shanghai", fiscal=FISCAL)
        assert answer.settled, (phrase.name, text, answer.unread)
        assert answer.expression == expression, (phrase.name, text)
        names = [name for name, *_ in named_phrases(tokenize(normalize(text)))]
        assert phrase.name in names, f"{phrase.name} is shadowed on {text!r} by {names}"


def test_the_public_names_are_pinned() -> None:
    assert resolver.timeexpr.__all__ == [
        "MAX_TEXT", "STEPS", "Clock", "Outcome", "Reading", "Settled", "Step", "TimeResolution",
        "TimeWindow", "Told", "UnknownZone", "blank", "language_of", "now_ms_of", "outcome",
        "read", "read_context", "read_window", "resolve_time", "settle", "settle_both", "stated",
        "step_of", "time_ask", "to_epoch_ms", "told", "unread_clause", "zone_of",
    ]  # fmt: skip


def test_no_module_of_the_reader_is_over_450_lines() -> None:
    for path in PACKAGE.rglob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 450, f"{path.relative_to(PACKAGE)}: {lines} lines"

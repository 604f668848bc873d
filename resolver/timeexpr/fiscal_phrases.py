"""Builders of the fiscal phrase families (SPEC §9.1), declared in `lang/zh.py` and
`lang/en.py`: 本财年/上财年/下财年/上上财年, this/last/next fiscal year, FY2025/FY25/FY 2025/
2025财年/财年2025, fiscal Q3/财年第三季度/FY2025 Q3/FY25Q3/上个财季/本财季, fiscal H1/财年上半年,
fiscal year to date/财年至今/本财年以来, 财年前三季度. Each gives an atom over `FiscalTerm`s, placed
in the request's fiscal calendar only at evaluation (a text naming one with no calendar settles
nothing)."""

from __future__ import annotations

from resolver.timeexpr.atoms import Atom
from resolver.timeexpr.fiscal import FiscalTerm
from resolver.timeexpr.found import CLASS_NAME, Found, Refused, count
from resolver.timeexpr.result import Step
from resolver.timeexpr.terms import NOW

# 本/this: 0, 上/last: -1, 上上: -2, 下/next: +1
_OFFSETS = {"ZH_THIS": 0, "THIS": 0, "ZH_LAST": -1, "LAST": -1, "ZH_LAST2": -2, "ZH_NEXT": 1,
            "NEXT": 1, "ZH_NEXT2": 2}  # fmt: skip


def _year(found: Found, group: str) -> int | None:
    """The fiscal year a group's token names: FY2025/FY25 (the FISCAL label's value), 2025, 25."""
    token = found.tok(group)
    value = None if token is None else token.value
    if not isinstance(value, int):
        return None
    if 0 <= value <= 99:
        return 2000 + value if value < 50 else 1900 + value
    return value if 1900 <= value <= 2199 else None


def _named_year(found: Found) -> int | None:
    """The year of a phrase: its `y` group, else the value of its FISCAL label (FY2025)."""
    year = _year(found, "y")
    if year is None:
        year = _year(found, "f")
    return year


def _is_quarter_word(found: Found) -> bool:
    """财季 (a fiscal quarter) rather than 财年 (a fiscal year)."""
    token = found.tok("f")
    return token is not None and token.value == "quarter"


def relative_fiscal(found: Found) -> Atom:
    """本财年/上财年/下财年/上上财年, this/last/next fiscal year; 本财季/上个财季: this one so far,
    or the whole one before or after."""
    offset = _OFFSETS[CLASS_NAME[found.need("r").code]]
    quarter = _is_quarter_word(found) or (found.has("u") and found.text("u") == "E_QUARTER")
    unit: Step = "quarter" if quarter else "year"
    term = FiscalTerm("quarter" if quarter else "year", 0, None, offset)
    if offset == 0:
        return Atom("this", unit, term, NOW)
    return Atom("period", unit, term)


def fiscal_to_date(found: Found) -> Atom:
    """fiscal year to date, 财年至今, 本财年以来: the fiscal year's first day .. now (本财季以来:
    the fiscal quarter's)."""
    if _is_quarter_word(found):
        return Atom("this", "quarter", FiscalTerm("quarter"), NOW)
    return Atom("this", "year", FiscalTerm("year"), NOW)


def named_fiscal_year(found: Found) -> Atom | None:
    """FY2025, FY25, FY 2025, 2025财年, 财年2025, fiscal year 2025: the whole fiscal year."""
    year = _named_year(found)
    if year is None:
        return None
    return Atom("period", "year", FiscalTerm("year", 0, year))


def fiscal_quarter(found: Found) -> Atom | None:
    """fiscal Q3, 财年第三季度, FY2025 Q3, FY25Q3, 2025财年第三季度: a fiscal quarter of a named
    year, or (no year) this fiscal year's once it has started, else last year's."""
    number = count(found.need("q"))
    if number is None or not 1 <= number <= 4:
        raise Refused("q")
    year = _named_year(found)
    return Atom("period", "quarter", FiscalTerm("quarter", number, year, 0, year is None))


def fiscal_half(found: Found) -> Atom | None:
    """fiscal H1, 财年上半年, FY2025 H2: a fiscal half (step month, as 上半年)."""
    number = found.number("h")
    if not 1 <= number <= 2:
        raise Refused("h")
    year = _named_year(found)
    return Atom("period", "month", FiscalTerm("half", number, year, 0, year is None))


def fiscal_first_quarters(found: Found) -> Atom | None:
    """财年前三季度, 本财年前三季度, 2025财年前两季度: the fiscal year's first day .. the end of its
    Nth quarter (this fiscal year when none is named)."""
    number = count(found.need("n"))
    if number is None or not 1 <= number <= 4:
        raise Refused("n")
    year = _named_year(found)
    offset = _OFFSETS[CLASS_NAME[found.need("r").code]] if found.has("r") else 0
    first = FiscalTerm("quarter", 1, year, offset)
    if number == 1:
        return Atom("period", "quarter", first)
    return Atom("span", "quarter", first, FiscalTerm("quarter", number, year, offset))


def fiscal_first_quarters_named(found: Found) -> Atom | None:
    """the first three quarters of the fiscal year: as 财年前三季度 (`first` only)."""
    if found.number("x") != 1:
        raise Refused("x")
    return fiscal_first_quarters(found)

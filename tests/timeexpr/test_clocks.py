"""Clock and zone sentences and zone names (SPEC §3, docs/time-semantics.md): what each maps
to, what maps to nothing, and where the sentences lie (they are hidden from the reading)."""

from __future__ import annotations

from datetime import date

import pytest

from resolver.timeexpr import read, read_context, read_window, stated, told, zone_of

NOW = 1_762_996_342_241  # Thu 2025-11-13 09:12:22.241 +08:00


@pytest.mark.parametrize(
    ("name", "zone"),
    [
        ("Asia/Shanghai", "Asia/Shanghai"),
        ("asia/shanghai", "Asia/Shanghai"),  # IANA names in any letter case
        ("纽约", "America/New_York"),
        ("New York", "America/New_York"),
        ("北京时间", "Asia/Shanghai"),
        ("UTC+8", "Etc/GMT-8"),  # IANA's Etc zones invert the sign
        ("GMT-5", "Etc/GMT+5"),
        ("+08:00", "Etc/GMT-8"),
        ("-0500", "Etc/GMT+5"),
        ("Z", "UTC"),
        ("utc", "UTC"),
        ("东八区", "Etc/GMT-8"),
        ("西五区", "Etc/GMT+5"),
        ("PST", "America/Los_Angeles"),  # with its daylight time
        ("EST", "America/New_York"),
        ("JST", "Asia/Tokyo"),
    ],
)
def test_a_zone_name_maps_to_its_iana_zone(name: str, zone: str) -> None:
    assert zone_of(name) == zone


@pytest.mark.parametrize(
    "name",
    [
        "火星",
        "UTC+15",  # no zone on Earth
        "+05:15",  # no zone keeps that offset (+05:30 is India's: SPEC §4.3)
        "posixrules",  # a file of the zoneinfo folder, no zone
        "CST",  # China or US Central
        "IST",  # India, Israel or Ireland
        "America",  # a folder of zones, not a zone
        "",
    ],
)
def test_a_name_of_no_zone_or_of_several_maps_to_nothing(name: str) -> None:
    assert zone_of(name) is None


def test_clock_and_zone_sentences_are_found_and_hidden_from_the_reading() -> None:
    text = "今天是2025年11月13日，用户在纽约时区，看上个月"
    said = told(text)
    assert said.today == date(2025, 11, 13)
    assert said.zone == "America/New_York"
    assert [text[a:b] for a, b in said.spans] == ["今天是2025年11月13日", "在纽约时区"]
    reading, _ = read_context(text, zone_given=False)
    assert [text[e.start : e.end] for e in reading.expressions] == ["上个月"]
    assert reading.unread == ()


def test_a_zone_cue_of_no_zone_leaves_the_text_unread_unless_the_zone_is_given() -> None:
    text = "用户在火星时区，看上个月"
    unread, said = read_context(text, zone_given=False)
    assert said.unmapped == "火星"
    assert unread.unread == ("火星",)
    given, _ = read_context(text, zone_given=True)
    assert given.unread == ()
    assert len(given.expressions) == 1


def test_a_written_date_is_a_clock_value() -> None:
    assert stated("2025年11月13日").today == date(2025, 11, 13)
    assert stated("Nov 13, 2025 10:30").clock == (10, 30)
    assert stated("十一月的某天").today is None


@pytest.mark.parametrize("text", ["时间范围：2024年1月至3月", "period: last quarter"])
def test_the_colon_after_a_key_is_punctuation(text: str) -> None:
    reading = read(text)
    assert reading.unread == ()
    assert len(reading.expressions) == 1


def test_a_clock_left_unread_is_named_whole() -> None:
    assert read("下午3:30").unread == ("下午3:30",)


def test_the_default_zone_places_a_text_no_zone_is_named_for() -> None:
    tokyo = read_window("yesterday", now_ms=NOW, default_timezone="Asia/Tokyo")
    assert tokyo.timezone == "Asia/Tokyo"
    assert tokyo.start_iso == "2025-11-12T00:00:00.000+09:00"
    # A zone sentence of the context beats the default; the caller's zone beats both.
    said = read_window("yesterday", now_ms=NOW, context="用户在纽约时区", default_timezone="UTC")
    assert said.timezone == "America/New_York"
    given = read_window("yesterday", now_ms=NOW, timezone="UTC", context="用户在纽约时区")
    assert given.timezone == "UTC"

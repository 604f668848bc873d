"""Reviewed peer false positives: (text, mention) pairs where dateparser reports a date that no
reasonable reading holds, each with the reason. The differential fails on every violation that
is not here; keep it short (a growing list means a filter of `check.py` is missing)."""

from __future__ import annotations

from typing import NamedTuple


class Allowed(NamedTuple):
    """One reviewed peer false positive."""

    text: str
    mention: str
    reason: str


ALLOWED: tuple[Allowed, ...] = (
    Allowed(
        "how about 2019 q1",
        "about 2019 q1",
        "`how about X` suggests X; its `about` is no approximation (SPEC §4.2 says so)",
    ),
    Allowed(
        "how about 2024 q3 revenue",
        "about 2024 q3",
        "`how about X` suggests X; its `about` is no approximation (SPEC §4.2 says so)",
    ),
    Allowed(
        "May I see last month's revenue?",
        "May",
        "`May I` is the modal verb, not the month (SPEC §4.2's own example)",
    ),
)


def reason_for(text: str, mention: str) -> str | None:
    """The reviewed reason the peer is wrong on this mention of this text, if any."""
    for entry in ALLOWED:
        if entry.text == text and entry.mention == mention:
            return entry.reason
    return None

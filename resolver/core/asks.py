"""The one way a 422's ask is written, whoever builds its clauses (`params/asks.py` for the
missing inputs of a property, `windows/asks.py` for a time window). It imports nothing, so the
builders need not import the language tables to use it."""

from __future__ import annotations


def ask_sentence(language: str, *clauses: str) -> str:
    """The clauses joined (`；` in Chinese, `; ` in English), an English sentence starting
    with a capital."""
    if language == "zh":
        return "；".join(clauses)
    sentence = "; ".join(clauses)
    return sentence[:1].upper() + sentence[1:]

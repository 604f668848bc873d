"""Turn Duckling's EN and ZH time corpora into resolver gold rows.

`build_rows(lang, corpus_source, reference)` reads the corpus text with `haskell.parse`, looks
every phrase up in the hand-written table of its language (`en_table`, `zh_table`), evaluates
the reading at Duckling's reference clock (`readings.evaluate`) and returns the rows of
`benchmarks/data/duckling_<lang>.jsonl`. A phrase missing from the table, or a table line no
phrase uses, is an error: every phrase is read once, by hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from benchmarks.corpus import en_table, zh_table
from benchmarks.corpus.haskell import Block, Tuple6, parse
from benchmarks.corpus.readings import evaluate, kind_of, single_of
from benchmarks.gold_oracle.periods import Clock

# SPEC §5: timestamps within [2000-01-01, 2100-01-01] (UTC).
LOWEST_MS = 946_684_800_000
HIGHEST_MS = 4_102_444_800_000
BASES = ("spec", "spec-nothing", "silent", "out-of-range")
SECTION_ORDER = ("allExamples", "defaultCorpus", "latentCorpus", "diffCorpus", "negativeCorpus")
SECTION_TAG = {
    "allExamples": "",
    "defaultCorpus": "[default] ",
    "latentCorpus": "[latent] ",
    "diffCorpus": "[diff] ",
    "negativeCorpus": "[negative] ",
}
SECTION_KEY = {"diffCorpus": "diff:"}


@dataclass(frozen=True, slots=True)
class Reading:
    """One table line, for one phrase."""

    family: str
    reading: str
    basis: str
    single: bool
    note: str


def parse_table(text: str) -> dict[str, Reading]:
    """The table's lines → phrase (with a `diff:` prefix for the diff corpus) → reading."""
    table: dict[str, Reading] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" | ")]
        if len(fields) != 5:
            raise ValueError(f"a table line needs 5 fields: {line}")
        phrases, family, reading, basis_field, note = fields
        basis, *flags = basis_field.split()
        if basis not in BASES:
            raise ValueError(f"unknown basis {basis!r}: {line}")
        kind_of(reading)
        single = single_of(reading)
        if "single" in flags:
            single = True
        if "multi" in flags:
            single = False
        for phrase in (p.strip() for p in phrases.split(";")):
            if phrase in table:
                raise ValueError(f"phrase twice in the table: {phrase!r}")
            table[phrase] = Reading(family, reading, basis, single, note)
    return table


TABLES = {"en": en_table.TABLE, "zh": zh_table.TABLE}


def _clip(t: Tuple6) -> str:
    """A Duckling tuple as ISO text; month and day are clipped like `fromGregorian` does."""
    y, m, d, hh, mm, ss = t
    m = min(max(m, 1), 12)
    last = 31
    if 1 <= y <= 9998:
        nxt = date(y + (m == 12), m % 12 + 1, 1)
        last = (nxt - date(y, m, 1)).days
    d = min(max(d, 1), last)
    text = f"{y:04d}-{m:02d}-{d:02d}" if y >= 0 else f"-{-y:04d}-{m:02d}-{d:02d}"
    if (hh, mm, ss) != (0, 0, 0):
        text += f"T{hh:02d}:{mm:02d}:{ss:02d}"
    return text


def describe(block: Block) -> str:
    """Duckling's expectation, short: `datetime 2013-02-15 Day`, `interval a..b Hour`, …"""
    tag = SECTION_TAG[block.section]
    if block.kind == "negative":
        return tag + "no time"
    assert block.start is not None
    holiday = f' "{block.holiday}"' if block.holiday else ""
    if block.kind == "datetimeOpenInterval":
        direction = (block.direction or "").lower()
        return f"{tag}open-{direction} {_clip(block.start)} {block.grain}"
    if block.end is not None:
        span = f"{_clip(block.start)}..{_clip(block.end)}"
        return f"{tag}interval{holiday} {span} {block.grain} (end exclusive)"
    word = "holiday" if block.holiday else "datetime"
    return f"{tag}{word}{holiday} {_clip(block.start)} {block.grain}"


def clock_for(reference: tuple[Tuple6, int]) -> Clock:
    """Duckling's reference wall time at a fixed UTC offset, as an IANA `Etc/GMT±N` clock."""
    (y, m, d, hh, mm, ss), offset = reference
    zone = "UTC" if offset == 0 else f"Etc/GMT{'+' if offset < 0 else '-'}{abs(offset)}"
    return Clock.at(f"{y:04d}-{m:02d}-{d:02d}T{hh:02d}:{mm:02d}:{ss:02d}", zone)


def _out_of_range(expected: dict[str, Any] | None) -> bool:
    if not expected or expected.get("instant"):
        return False
    return bool(expected["start"] < LOWEST_MS or expected["end"] > HIGHEST_MS)


def _ordered(blocks: Iterable[Block]) -> list[Block]:
    return sorted(blocks, key=lambda b: SECTION_ORDER.index(b.section))


def build_rows(
    lang: str,
    source: str,
    references: dict[str, tuple[Tuple6, int]],
) -> list[dict[str, Any]]:
    """The gold rows of one language, in corpus order (allExamples first), deduplicated."""
    table = parse_table(TABLES[lang])
    used: set[str] = set()
    rows: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for block in _ordered(parse(source)):
        context = "diffContext" if block.section == "diffCorpus" else "testContext"
        clock = clock_for(references[context])
        duckling = describe(block)
        for phrase in block.phrases:
            key = SECTION_KEY.get(block.section, "") + phrase
            if key not in table:
                raise KeyError(f"{lang}: no reading for {key!r} ({duckling})")
            used.add(key)
            dedup = (phrase, duckling.split("] ")[-1], clock.tz_name + str(clock.now_ms))
            if dedup in seen:
                continue
            seen.add(dedup)
            entry = table[key]
            expected = evaluate(entry.reading, clock)
            basis = "out-of-range" if _out_of_range(expected) else entry.basis
            rows.append(
                {
                    "id": f"{lang}-{len(rows) + 1:04d}",
                    "lang": lang,
                    "text": phrase,
                    "now_ms": clock.now_ms,
                    "timezone": clock.tz_name,
                    "duckling": duckling,
                    "family": entry.family,
                    "single": entry.single,
                    "expected": expected,
                    "basis": basis,
                    "note": entry.note,
                }
            )
    unused = sorted(set(table) - used)
    if unused:
        raise KeyError(f"{lang}: table lines no phrase uses: {unused}")
    return rows
